-- Whether $name is a base table (not a view) of the warehouse.
-- Parameters: $name.
SELECT count(*) > 0
FROM information_schema.tables
WHERE table_name = $name AND table_type = 'BASE TABLE'
