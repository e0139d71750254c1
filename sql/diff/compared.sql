-- The rows of comparison $macro (requirement_changes or answer_changes, the table macros of
-- sql/views/changes.sql) from run $run_a to run $run_b, as a relation for the queries beside.
-- Parameters: $macro, $run_a, $run_b.
SELECT * FROM $macro($run_a, $run_b)
