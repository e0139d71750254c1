-- One run's rows of a table, with its run_id (a part of sql/warehouse/all_runs_view.sql).
-- Parameters: $run_id, $rows.
SELECT *, $run_id AS run_id FROM $rows
