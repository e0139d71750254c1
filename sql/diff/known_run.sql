SELECT count(*) FROM runs WHERE run_id = $run_id AND status IN ('published', 'failed', 'partial')
  AND collected_at IS NULL
