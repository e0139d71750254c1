-- The review checks recorded for run $run_id, by name, as exported.
-- Parameters: $run_id.
SELECT check_name, table_name, severity, metric, threshold, value, passed, offending_rows,
       CAST(sample AS VARCHAR) AS sample
FROM check_results
WHERE run_id = $run_id
ORDER BY check_name
