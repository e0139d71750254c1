-- The review stage's checks on one run: the provenance block says which passed and failed.
-- Parameters: $run_id.
SELECT check_name, table_name, severity, metric, passed, offending_rows
FROM check_results
WHERE run_id = $run_id
ORDER BY passed, severity, check_name
