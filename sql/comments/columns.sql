-- The columns of every table and view of the connection's database (as comments/relations.sql
-- lists them), in order, with their comments.
SELECT schema_name, table_name, column_name, comment
FROM duckdb_columns()
WHERE NOT internal AND database_name = current_database()
ORDER BY table_name, column_index
