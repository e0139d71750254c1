-- The statements of one run. SELECT *: runs written before statements had a `verdict` column
-- lack it, and the report derives it for them.
SELECT *
FROM read_parquet({statements}, hive_partitioning = false, union_by_name = true)
ORDER BY question_id, ordinal
