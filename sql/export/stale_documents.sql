-- Documents whose stored text no longer holds the run's quotes at their offsets: edited since
-- the run (the warehouse keeps each document's latest text only), so the run cannot be exported.
-- Parameters: $requirements.
SELECT DISTINCT r.doc_id
FROM $requirements r
LEFT JOIN documents d USING (doc_id)
WHERE d.doc_id IS NULL
   OR substring(d.text, r.char_start + 1, r.char_end - r.char_start) IS DISTINCT FROM r.exact_quote
ORDER BY r.doc_id
