-- check: requirement_ids_unique
-- table: requirements
-- severity: hard
-- metric: requirement IDs that appear more than once, or are malformed, or not in the registry
SELECT requirement_id, count(*) AS occurrences
FROM run_requirements
GROUP BY requirement_id
HAVING count(*) > 1
    OR NOT regexp_full_match(requirement_id, 'REQ-[SP][0-9]{4,}')
    OR requirement_id NOT IN (SELECT requirement_id FROM requirement_registry)
