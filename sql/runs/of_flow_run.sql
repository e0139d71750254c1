-- The run a Prefect flow run started before: a retried flow run continues its own run.
-- Parameters: $flow_run_id.
SELECT run_id FROM runs WHERE flow_run_id = $flow_run_id ORDER BY started_at DESC LIMIT 1
