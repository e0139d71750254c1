-- check: chunks_verbatim
-- table: chunks
-- severity: hard
-- metric: chunks whose text is not documents.text[char_start:char_end]
SELECT c.chunk_id, c.doc_id, c.char_start, c.char_end
FROM run_chunks c
LEFT JOIN documents d USING (doc_id)
WHERE d.doc_id IS NULL
   OR substring(d.text, c.char_start + 1, c.char_end - c.char_start) IS DISTINCT FROM c.text
