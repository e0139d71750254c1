-- The run each current_<table> view shows, per table: (table_name, run_id). Every row names the
-- published run (sql/runs/published.sql); a table missing here gets no current_ view.
SELECT table_name, run_id FROM publications
