-- Move the current_* views to this run: one row per published table; and mark the run published
-- in the same transaction (the end of the run adds its counts and timings).
-- Parameters: $tables, $run_id.
INSERT OR REPLACE INTO publications
SELECT unnest($tables), $run_id, now()::TIMESTAMP;

UPDATE runs SET status = 'published' WHERE run_id = $run_id;
