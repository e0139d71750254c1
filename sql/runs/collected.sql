UPDATE runs SET collected_at = now()::TIMESTAMP WHERE run_id IN (SELECT unnest($run_ids))
