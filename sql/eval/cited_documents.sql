-- The document of each citation of a run's answers, one row per citation: `groundwork eval`
-- counts the citations into an expected document and the answers citing one.
-- Parameters: $citations, $requirements.
SELECT c.question_id, r.doc_id
FROM $citations c
JOIN $requirements r USING (requirement_id)
ORDER BY c.question_id, r.doc_id
