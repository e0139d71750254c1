INSERT INTO runs (run_id, flow_run_id, status, started_at, corpus, config, config_hash)
VALUES ($run_id, $flow_run_id, 'running', now()::TIMESTAMP, $corpus, $config, $config_hash)
