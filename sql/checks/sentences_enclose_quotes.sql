-- check: sentences_enclose_quotes
-- table: requirements
-- severity: hard
-- metric: requirements whose enclosing sentence (sentence_start, sentence_end) does not hold the
--   whole quote inside the document, or crosses a paragraph break (readers show it as one
--   sentence; rows this run computed: see sql/review/run_views.sql; the sentence read from the
--   requirement's chunk when it lies inside it, see sql/review/placed_requirements.sql)
WITH spans AS MATERIALIZED (  -- made once for the two halves below
    SELECT *,
           NOT (sentence_start <= char_start AND char_end <= sentence_end
                AND sentence_end <= n_chars) AS outside,
           in_chunk(chunk_start, chunk_end, sentence_start, sentence_end) AS sentence_in_chunk
    FROM placed_requirements
    WHERE n_chars IS NOT NULL  -- a document to compare with
), elsewhere AS (
    -- the sentences not inside their chunk: read from their documents, and only those
    -- documents read (their texts are most of the warehouse)
    SELECT requirement_id, doc_id, sentence_start, sentence_end, char_start, char_end
    FROM spans
    WHERE outside IS NOT TRUE AND NOT sentence_in_chunk
)
SELECT requirement_id, doc_id, sentence_start, sentence_end, char_start, char_end
FROM spans
WHERE outside
   OR (sentence_in_chunk
       AND strpos(substring(chunk_text, sentence_start - chunk_start + 1,
                            sentence_end - sentence_start), chr(10) || chr(10)) > 0)
UNION ALL
SELECT e.requirement_id, e.doc_id, e.sentence_start, e.sentence_end, e.char_start, e.char_end
FROM elsewhere e
JOIN (
    -- through the two tables, not the documents view (see requirements_verbatim.sql)
    SELECT r.doc_id, t.text
    FROM document_rows r JOIN document_texts t USING (sha256)
    WHERE r.doc_id IN (SELECT doc_id FROM elsewhere)
) d USING (doc_id)
WHERE strpos(substring(d.text, e.sentence_start + 1, e.sentence_end - e.sentence_start),
             chr(10) || chr(10)) > 0
