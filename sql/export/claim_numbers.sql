-- The numbers the run's claims state; a number's ID is its claim and its place in the file's
-- order (the order compose found them in, by position).
-- Parameters: $claim_numbers_files.
SELECT claim_id || ':' || row_number() OVER (PARTITION BY claim_id ORDER BY filename, file_row_number)
         AS claim_number_id,
       claim_id, question_id, surface, kind, value, unit, status, quote_surface, inputs,
       calculation
FROM read_parquet($claim_numbers_files, hive_partitioning = false, filename = true,
                  file_row_number = true)
ORDER BY question_id, claim_id, filename, file_row_number
