-- A rerun review replaces run $run_id's check results rather than adding them twice.
-- Parameters: $run_id.
DELETE FROM check_results WHERE run_id = $run_id
