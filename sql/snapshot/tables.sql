-- The tables of an attached snapshot ($database: `published` or `previous`).
-- Parameters: $database.
SELECT table_name FROM duckdb_tables() WHERE database_name = $database
