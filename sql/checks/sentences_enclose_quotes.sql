-- check: sentences_enclose_quotes
-- table: requirements
-- severity: hard
-- metric: requirements whose enclosing sentence (sentence_start, sentence_end) does not hold the
--   whole quote inside the document, or crosses a paragraph break (readers show it as one
--   sentence; rows this run computed: see sql/review/run_views.sql)
SELECT r.requirement_id, r.doc_id, r.sentence_start, r.sentence_end, r.char_start, r.char_end
FROM fresh_requirements r
-- each document's length counted once, not once per requirement (2-3 s of the bench corpus)
JOIN (SELECT doc_id, text, length(text) AS n_chars FROM documents) d USING (doc_id)
WHERE NOT (r.sentence_start <= r.char_start AND r.char_end <= r.sentence_end
           AND r.sentence_end <= d.n_chars)
   OR strpos(substring(d.text, r.sentence_start + 1, r.sentence_end - r.sentence_start),
             chr(10) || chr(10)) > 0
