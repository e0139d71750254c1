-- The published run before this one (by start), which the report's diff compares against.
-- Parameters: $run_id.
SELECT run_id
FROM runs
WHERE status = 'published' AND collected_at IS NULL
  AND started_at < (SELECT started_at FROM runs WHERE run_id = $run_id)
ORDER BY started_at DESC
LIMIT 1
