-- `<table>`: the rows of every run of a table, with their run_id (built in groundwork/warehouse/store.py).
-- Parameters: $table, $rows.
CREATE OR REPLACE VIEW $table AS $rows
