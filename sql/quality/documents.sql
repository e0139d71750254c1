-- The active documents, and how many of the run's requirements each holds.
-- Parameters: $requirements.
SELECT d.doc_id, d.source_type, d.jurisdiction,
       count(r.requirement_id) AS requirements,
       count(r.requirement_id) > 0 AS has_requirements
FROM documents d
LEFT JOIN $requirements r USING (doc_id)
WHERE d.status = 'active'
GROUP BY ALL
ORDER BY d.doc_id
