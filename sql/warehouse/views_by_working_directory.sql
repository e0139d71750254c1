-- Views that name a Parquet file by a path with something before its `tables/`: the working
-- directory of the run that made them (warehouse/tables/...) or an absolute path, as views did
-- before format 3. Those of format 3 on name `tables/...`, resolved in the warehouse folder.
SELECT view_name
FROM duckdb_views()
WHERE NOT internal AND database_name = current_database()
  AND regexp_matches(sql, '''[^'']+/tables/[^'']+\.parquet''')
ORDER BY view_name
