-- The published run of each table.
SELECT table_name, run_id FROM publications
