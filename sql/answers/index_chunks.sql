-- The chunks a run's questions are answered from, with the document fields retrieval filters on.
-- Parameters: $chunks.
SELECT c.chunk_id, c.doc_id, c.heading, c.text, d.title, d.citation, d.source_type, d.jurisdiction
FROM $chunks c
JOIN documents d USING (doc_id)
ORDER BY c.doc_id, c.ordinal
