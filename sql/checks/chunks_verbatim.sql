-- check: chunks_verbatim
-- table: chunks
-- severity: hard
-- metric: chunks whose text is not documents.text[char_start:char_end]
--   (rows this run computed: see sql/review/run_views.sql)
SELECT c.chunk_id, c.doc_id, c.char_start, c.char_end
FROM fresh_chunks c
LEFT JOIN documents d USING (doc_id)
WHERE d.doc_id IS NULL
   OR substring(d.text, c.char_start + 1, c.char_end - c.char_start) IS DISTINCT FROM c.text
