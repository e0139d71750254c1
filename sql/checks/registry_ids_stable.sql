-- check: registry_ids_stable
-- table: requirement_registry
-- severity: hard
-- metric: IDs whose number does not match their position, IDs given twice, or a canonical key
--   with two IDs (the registry has no key indexes: see sql/ddl/warehouse.sql)
SELECT requirement_id, canonical_key
FROM requirement_registry
WHERE requirement_id <> printf('REQ-%s%04d', prefix, seq)
   OR requirement_id IN (SELECT requirement_id FROM requirement_registry
                         GROUP BY requirement_id HAVING count(*) > 1)
   OR canonical_key IN (SELECT canonical_key FROM requirement_registry
                        GROUP BY canonical_key HAVING count(*) > 1)
