-- The run whose per-document outputs this run may reuse: the published run, if it ran with the
-- same config and stage code (and its files are still there).
SELECT r.run_id
FROM runs r
JOIN publications p ON p.run_id = r.run_id AND p.table_name = 'candidates'
WHERE r.config_hash = $config_hash AND r.code_version = $code_version
  AND r.collected_at IS NULL AND r.run_id <> $run_id
