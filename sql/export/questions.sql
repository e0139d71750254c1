SELECT question_id, question, topic, category, source_types, jurisdiction
FROM read_parquet({questions}, hive_partitioning = false)
ORDER BY question_id
