-- The run the current_* views show (every table is published together).
SELECT run_id FROM publications WHERE table_name = 'answers'
