-- Files skipped this run because their content did not change: their documents stay active
-- (the removal step below only removes documents no file of this run accounts for).
-- Parameters: $run_id.
UPDATE document_rows
SET last_run = $run_id
WHERE status = 'active' AND path IN (SELECT path FROM unchanged_files);
