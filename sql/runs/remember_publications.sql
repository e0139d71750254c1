-- The publication as it is before a run moves it, kept for this connection only (a temporary
-- table is never written to disk), so that `unpublish` can move it back.
CREATE OR REPLACE TEMP TABLE previous_publications AS SELECT * FROM publications
