-- check: requirements_verbatim
-- table: requirements
-- severity: hard
-- metric: requirements whose exact_quote is not documents.text[char_start:char_end]
--   (rows this run computed: see sql/review/run_views.sql; read from the requirement's chunk
--   when the quote lies inside it, see sql/review/placed_requirements.sql)
WITH placed AS MATERIALIZED (
    -- made once for the two halves below: read twice, the view's joins took several times as
    -- long on a large corpus
    SELECT * FROM placed_requirements
), elsewhere AS (
    -- the quotes not inside their chunk: read from their documents, and only those documents
    -- read (their texts are most of the warehouse)
    SELECT requirement_id, doc_id, char_start, char_end, exact_quote
    FROM placed
    WHERE NOT in_chunk(chunk_start, chunk_end, char_start, char_end)
)
SELECT requirement_id, doc_id, char_start, char_end, exact_quote
FROM placed
WHERE in_chunk(chunk_start, chunk_end, char_start, char_end)
  AND (n_chars IS NULL  -- no such document
       OR substring(chunk_text, char_start - chunk_start + 1, char_end - char_start)
          IS DISTINCT FROM exact_quote)
UNION ALL
SELECT e.requirement_id, e.doc_id, e.char_start, e.char_end, e.exact_quote
FROM elsewhere e
LEFT JOIN (
    -- through the two tables, not the documents view: with the view's outer join DuckDB joined
    -- every text before this filter, holding them all at once: past its memory limit on a large
    -- corpus
    SELECT r.doc_id, t.text
    FROM document_rows r JOIN document_texts t USING (sha256)
    WHERE r.doc_id IN (SELECT doc_id FROM elsewhere)
) d USING (doc_id)
WHERE d.doc_id IS NULL
   OR substring(d.text, e.char_start + 1, e.char_end - e.char_start) IS DISTINCT FROM e.exact_quote
