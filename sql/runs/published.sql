-- The published run: the one run every current_* view shows (a publication moves all tables at
-- once, sql/runs/publish.sql), or no row before the first publication. The one query that finds
-- it: a query about the published run takes it in as the relation $published.
SELECT run_id FROM publications WHERE table_name = 'requirements'
