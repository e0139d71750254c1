-- The sources of the documents the run read.
-- Parameters: $chunks.
SELECT s.source_id, s.source_type, s.title, s.citation, s.jurisdiction, s.url, s.effective_date,
       s.first_run, s.last_run
FROM sources s
WHERE s.source_id IN (
    SELECT d.source_id FROM documents d
    WHERE d.doc_id IN (SELECT doc_id FROM $chunks))
ORDER BY s.seq
