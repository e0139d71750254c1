-- The run whose per-document outputs this run ($run_id) may reuse: the published run
-- ($published: sql/runs/published.sql), if it ran with the same $config_hash and $code_version
-- (and its files are still there).
-- Parameters: $published, $config_hash, $code_version, $run_id.
SELECT r.run_id
FROM runs r
WHERE r.run_id IN ($published)
  AND r.config_hash = $config_hash AND r.code_version = $code_version
  AND r.collected_at IS NULL AND r.run_id <> $run_id
