-- The run whose answers are published: the report's default.
SELECT run_id FROM publications WHERE table_name = 'answers'
