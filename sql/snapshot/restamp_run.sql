-- The run published now in the run_id of every row of a table of the run (current_requirements,
-- dashboard_requirements): the one column that changes in rows taken over from the previous
-- snapshot.
-- Parameters: $table, $run_id.
UPDATE published.$table SET run_id = $run_id WHERE run_id IS DISTINCT FROM $run_id
