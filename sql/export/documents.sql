-- The documents the run read (every document it chunked), with the text offsets index into.
-- Parameters: $chunks.
SELECT d.doc_id, d.source_id, d.source_type, d.title, d.citation, d.jurisdiction, d.url,
       d.effective_date, d.path, d.format, d.sha256, d.text
FROM documents d
WHERE d.doc_id IN (SELECT doc_id FROM $chunks)
ORDER BY d.doc_id
