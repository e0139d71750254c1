-- check: requirements_verbatim
-- table: requirements
-- severity: hard
-- metric: requirements whose exact_quote is not documents.text[char_start:char_end]
--   (rows this run computed: see sql/review/run_views.sql; read from the requirement's chunk
--   when the quote lies inside it, see sql/review/placed_requirements.sql)
SELECT requirement_id, doc_id, char_start, char_end, exact_quote
FROM placed_requirements
WHERE in_chunk(chunk_start, chunk_end, char_start, char_end)
  AND (n_chars IS NULL  -- no such document
       OR substring(chunk_text, char_start - chunk_start + 1, char_end - char_start)
          IS DISTINCT FROM exact_quote)
UNION ALL
SELECT r.requirement_id, r.doc_id, r.char_start, r.char_end, r.exact_quote
FROM placed_requirements r
LEFT JOIN documents d USING (doc_id)
WHERE NOT in_chunk(r.chunk_start, r.chunk_end, r.char_start, r.char_end)
  AND (d.doc_id IS NULL
       OR substring(d.text, r.char_start + 1, r.char_end - r.char_start)
          IS DISTINCT FROM r.exact_quote)
