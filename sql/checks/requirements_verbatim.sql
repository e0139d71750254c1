-- check: requirements_verbatim
-- table: requirements
-- severity: hard
-- metric: requirements whose exact_quote is not documents.text[char_start:char_end]
--   (rows this run computed: see sql/review/run_views.sql)
SELECT r.requirement_id, r.doc_id, r.char_start, r.char_end, r.exact_quote
FROM fresh_requirements r
LEFT JOIN documents d USING (doc_id)
WHERE d.doc_id IS NULL
   OR substring(d.text, r.char_start + 1, r.char_end - r.char_start) IS DISTINCT FROM r.exact_quote
