-- Record a run that found nothing to do: it points at the published run it left in place.
-- Parameters: $run_id, $flow_run_id, $started_at, $corpus, $config, $config_hash,
--   $input_fingerprint, $reused_run, $counts, $timings.
INSERT INTO runs (run_id, flow_run_id, status, started_at, finished_at, corpus, config,
                  config_hash, input_fingerprint, reused_run, counts, timings)
VALUES ($run_id, $flow_run_id, 'unchanged', $started_at, now()::TIMESTAMP, $corpus, $config,
        $config_hash, $input_fingerprint, $reused_run, $counts, $timings)
