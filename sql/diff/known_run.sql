-- Whether $run_id is a run whose tables are still there to compare or export (1, else 0): one
-- that published, failed or stopped part way, and that gc has not collected.
-- Parameters: $run_id.
SELECT count(*) FROM runs WHERE run_id = $run_id AND status IN ('published', 'failed', 'partial')
  AND collected_at IS NULL
