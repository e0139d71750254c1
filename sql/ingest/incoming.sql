-- Staging for one run's parsed documents (the documents columns a parser fills), merged into
-- documents by merge_documents.sql.
CREATE OR REPLACE TEMP TABLE incoming_documents AS
SELECT * EXCLUDE (source_id, status, first_run, last_run, changed_run, n_chars)
FROM documents
WHERE false;
