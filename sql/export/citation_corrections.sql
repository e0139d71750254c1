-- The run's citation corrections; a correction's ID is its claim and its place in the order
-- compose made them in.
-- Parameters: $citation_corrections_files.
SELECT claim_id || ':' || row_number() OVER (PARTITION BY claim_id ORDER BY filename, file_row_number)
         AS correction_id,
       claim_id, statement_id, question_id, action, from_requirement_id, to_requirement_id,
       verdict_before, verdict_after, score, reason
FROM read_parquet($citation_corrections_files, hive_partitioning = false, filename = true,
                  file_row_number = true)
ORDER BY question_id, claim_id, filename, file_row_number
