-- `current_<table>`: the rows of the run that is published for a table.
-- Parameters: $table, $run_id, $rows.
CREATE OR REPLACE VIEW current_$table AS
SELECT *, $run_id AS run_id FROM $rows
