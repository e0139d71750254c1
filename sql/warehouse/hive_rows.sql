-- Every run's rows of a table without a lineage: its run_id comes from the folder name.
-- Parameters: $pattern.
SELECT * FROM read_parquet($pattern, hive_partitioning = true, union_by_name = true)
