SELECT table_name, run_id FROM publications
