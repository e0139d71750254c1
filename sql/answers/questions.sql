SELECT * FROM read_parquet({questions}, hive_partitioning = false) ORDER BY question_id
