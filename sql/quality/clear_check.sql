-- Forget a run's earlier Great Expectations outcome (a retried publish writes it again).
-- Parameters: $run_id.
DELETE FROM check_results WHERE run_id = $run_id AND check_name = 'great_expectations'
