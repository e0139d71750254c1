-- Each document's last_run ($documents: what current_documents holds now): every run sets it on
-- every document it reads, so it is the one column that changes in rows taken over from the
-- previous snapshot.
-- Parameters: $documents.
UPDATE published.current_documents
SET last_run = d.last_run
FROM $documents d
WHERE current_documents.doc_id = d.doc_id
  AND current_documents.last_run IS DISTINCT FROM d.last_run
