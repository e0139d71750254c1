INSERT INTO check_results VALUES
    ($run_id, $check_name, $table_name, $severity, $metric, $threshold, $value, $passed,
     $offending_rows, $sample)
