-- How many primary-key or unique constraints table $name has.
-- Parameters: $name.
SELECT count(*)
FROM duckdb_constraints()
WHERE table_name = $name AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')
