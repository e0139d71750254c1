UPDATE runs
SET status = $status, finished_at = now()::TIMESTAMP, corpus_hash = $corpus_hash,
    counts = $counts, timings = $timings, error = $error
WHERE run_id = $run_id
