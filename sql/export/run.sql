-- The exported run's row, and whether the current_* views show it.
-- Parameters: $run_id.
SELECT r.run_id, r.status,
       r.run_id IN (SELECT run_id FROM publications) AS published,
       CAST(r.started_at AS VARCHAR) AS started_at, CAST(r.finished_at AS VARCHAR) AS finished_at,
       r.corpus_hash, r.config_hash, r.code_version, r.input_fingerprint
FROM runs r
WHERE r.run_id = $run_id
