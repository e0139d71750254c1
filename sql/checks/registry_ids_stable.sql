-- check: registry_ids_stable
-- table: requirement_registry
-- severity: hard
-- metric: IDs whose number does not match their position, or a canonical key with two IDs
SELECT requirement_id, canonical_key
FROM requirement_registry
WHERE requirement_id <> printf('REQ-%s%04d', prefix, seq)
   OR canonical_key IN (SELECT canonical_key FROM requirement_registry
                        GROUP BY canonical_key HAVING count(*) > 1)
