-- Every review check of every run, passed or failed, for the drill-down.
SELECT run_id, check_name, table_name, severity, passed, offending_rows::BIGINT AS offending_rows
FROM check_results
