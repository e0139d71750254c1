-- The run the snapshot attached as `previous` holds.
SELECT run_id FROM previous.published_run
