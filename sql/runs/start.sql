-- Open a run's row; a retried flow run reopens its own row (same run_id).
-- Parameters: $run_id, $flow_run_id, $corpus, $config, $config_hash, $input_fingerprint,
--   $code_version.
INSERT INTO runs (run_id, flow_run_id, status, started_at, corpus, config, config_hash,
                  input_fingerprint, code_version)
VALUES ($run_id, $flow_run_id, 'running', now()::TIMESTAMP, $corpus, $config, $config_hash,
        $input_fingerprint, $code_version)
ON CONFLICT (run_id) DO UPDATE SET
    -- the attempt before this one, kept: a retry would otherwise erase that it failed, and why
    attempts = to_json(list_append(
        coalesce(CAST(runs.attempts AS JSON[]), []::JSON[]),
        json_object('started_at', runs.started_at, 'finished_at', runs.finished_at,
                    'status', runs.status, 'error', runs.error))),
    status = 'running', flow_run_id = EXCLUDED.flow_run_id, finished_at = NULL, error = NULL, config = EXCLUDED.config,
    config_hash = EXCLUDED.config_hash, input_fingerprint = EXCLUDED.input_fingerprint,
    code_version = EXCLUDED.code_version
