SELECT question_id, requirement_id, verified, rejection_reason, quote_coverage, chunk_coverage
FROM read_parquet({verifications}, hive_partitioning = false)
ORDER BY question_id, requirement_id
