-- Move the publication back to where it was before this run moved it (its reports or snapshot
-- could not be written): the run is not published, and the run before it is again.
-- Parameters: $run_id.
DELETE FROM publications;

INSERT INTO publications SELECT * FROM previous_publications;

UPDATE runs SET status = 'running' WHERE run_id = $run_id;
