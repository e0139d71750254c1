-- The chunks of one part with their document's citation, for the model's extraction prompt.
SELECT c.*, d.citation
FROM {chunks} c
LEFT JOIN documents d USING (doc_id)
ORDER BY c.doc_id, c.ordinal
