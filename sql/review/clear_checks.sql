DELETE FROM check_results WHERE run_id = $run_id
