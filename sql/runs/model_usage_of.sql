-- Run $run_id's model usage as recorded so far (JSON, or NULL).
-- Parameters: $run_id.
SELECT model_usage FROM runs WHERE run_id = $run_id
