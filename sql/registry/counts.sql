-- Registry counts after a run: active IDs, retired IDs, IDs first issued in this run.
-- Parameters: $run_id.
SELECT count(*) FILTER (WHERE status = 'active') AS active,
       count(*) FILTER (WHERE status = 'retired') AS retired,
       count(*) FILTER (WHERE first_run = $run_id) AS new
FROM requirement_registry
