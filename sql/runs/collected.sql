-- Mark the runs $run_ids (a list) as collected: gc removed their files (their rows stay).
-- Parameters: $run_ids.
UPDATE runs SET collected_at = now()::TIMESTAMP WHERE run_id IN (SELECT unnest($run_ids))
