-- Record run $run_id's $model_usage (JSON: each model stage's calls, tokens and time).
-- Parameters: $model_usage, $run_id.
UPDATE runs SET model_usage = $model_usage WHERE run_id = $run_id
