-- Open a run's row; a retried flow run reopens its own row (same run_id).
INSERT INTO runs (run_id, flow_run_id, status, started_at, corpus, config, config_hash,
                  input_fingerprint, code_version)
VALUES ($run_id, $flow_run_id, 'running', now()::TIMESTAMP, $corpus, $config, $config_hash,
        $input_fingerprint, $code_version)
ON CONFLICT (run_id) DO UPDATE SET
    status = 'running', flow_run_id = EXCLUDED.flow_run_id, finished_at = NULL, error = NULL, config = EXCLUDED.config,
    config_hash = EXCLUDED.config_hash, input_fingerprint = EXCLUDED.input_fingerprint,
    code_version = EXCLUDED.code_version
