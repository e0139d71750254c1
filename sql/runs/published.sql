-- The run the current_* views read (the published one), if any.
SELECT run_id FROM publications WHERE table_name = 'requirements'
