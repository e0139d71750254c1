-- A run that could not open the warehouse's database (another process held it, or it was
-- damaged), noted in unrecorded_runs.jsonl at the time and recorded by the next run that could.
-- Parameters: $run_id, $flow_run_id, $started_at, $corpus, $error.
INSERT INTO runs (run_id, flow_run_id, status, started_at, finished_at, corpus, error)
VALUES ($run_id, $flow_run_id, 'failed', $started_at, $started_at, $corpus, $error)
ON CONFLICT (run_id) DO NOTHING
