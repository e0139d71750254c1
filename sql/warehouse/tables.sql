-- The base tables of the warehouse (not views), by name: what tells an unrecorded format.
SELECT table_name
FROM information_schema.tables
WHERE table_type = 'BASE TABLE' AND table_catalog = current_database()
