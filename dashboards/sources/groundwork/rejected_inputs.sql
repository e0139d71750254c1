-- Inputs the runs turned away, documents and questions, with the reason. Every run has a row
-- (input NULL where it rejected nothing): Evidence cannot load an empty source.
SELECT r.run_id, x.input, x.path, x.reason
FROM runs r
LEFT JOIN (
    SELECT run_id, 'document' AS input, path, reason FROM rejected_documents
    UNION ALL
    SELECT run_id, 'question' AS input, path, reason FROM rejected_questions
) x USING (run_id)
