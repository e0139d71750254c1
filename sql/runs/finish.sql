-- Close a run's row with its outcome. A run that failed before it opened its row (a questions
-- file that cannot be read, a corpus that vanished) gets one here: every attempt leaves a row.
-- Parameters: $run_id, $flow_run_id, $status, $corpus, $corpus_hash, $counts, $timings, $error.
INSERT INTO runs (run_id, flow_run_id, status, started_at, finished_at, corpus, corpus_hash,
                  counts, timings, error)
VALUES ($run_id, $flow_run_id, $status, now()::TIMESTAMP, now()::TIMESTAMP, $corpus,
        $corpus_hash, $counts, $timings, $error)
ON CONFLICT (run_id) DO UPDATE SET
    status = EXCLUDED.status, finished_at = EXCLUDED.finished_at,
    corpus_hash = EXCLUDED.corpus_hash, counts = EXCLUDED.counts, timings = EXCLUDED.timings,
    error = EXCLUDED.error
