-- The tables and views of the connection's database (not DuckDB's own, not temporary ones), with
-- their comments: what groundwork/warehouse/comments.py describes.
SELECT schema_name, table_name AS name, 'TABLE' AS kind, comment
FROM duckdb_tables()
WHERE NOT internal AND database_name = current_database()
UNION ALL
SELECT schema_name, view_name, 'VIEW', comment
FROM duckdb_views()
WHERE NOT internal AND database_name = current_database()
ORDER BY name
