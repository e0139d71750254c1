-- Move the current_* views to this run: one row per published table.
INSERT OR REPLACE INTO publications
SELECT unnest($tables), $run_id, now()::TIMESTAMP
