-- Each question's retrieved chunks, best first, with the chunk's document and text: what
-- `groundwork eval` ranks distinct documents and labelled passages by.
-- Parameters: $retrievals, $chunks.
SELECT r.question_id, r.rank, r.chunk_id, r.doc_id, c.text
FROM $retrievals r
LEFT JOIN $chunks c USING (chunk_id)
ORDER BY r.question_id, r.rank
