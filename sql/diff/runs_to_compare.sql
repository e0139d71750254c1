-- The two latest published runs: what `groundwork diff` compares when no runs are named.
SELECT run_id FROM runs WHERE status = 'published' AND collected_at IS NULL ORDER BY started_at DESC LIMIT 2
