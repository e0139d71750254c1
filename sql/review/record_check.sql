-- Record one check's result for run $run_id: its name, table, severity, metric, threshold, value,
-- whether it passed, and its offending rows with a sample of them.
-- Parameters: $run_id, $check_name, $table_name, $severity, $metric, $threshold, $value, $passed,
--   $offending_rows, $sample.
INSERT INTO check_results VALUES
    ($run_id, $check_name, $table_name, $severity, $metric, $threshold, $value, $passed,
     $offending_rows, $sample)
