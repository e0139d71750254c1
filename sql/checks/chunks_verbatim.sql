-- check: chunks_verbatim
-- table: chunks
-- severity: hard
-- metric: chunks whose text is not documents.text[char_start:char_end]
--   (rows this run computed: see sql/review/run_views.sql)
SELECT c.chunk_id, c.doc_id, c.char_start, c.char_end
FROM fresh_chunks c
-- only the run's own documents read: their texts are most of the warehouse, and a run that
-- changed a few documents would otherwise read every text from disk
LEFT JOIN (SELECT doc_id, text FROM documents WHERE doc_id IN (SELECT doc_id FROM fresh_chunks)) d
       USING (doc_id)
WHERE d.doc_id IS NULL
   OR substring(d.text, c.char_start + 1, c.char_end - c.char_start) IS DISTINCT FROM c.text
