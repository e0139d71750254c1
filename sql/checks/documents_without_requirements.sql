-- check: documents_without_requirements
-- table: documents
-- severity: soft
-- threshold: 0.60
-- denominator: SELECT count(*) FROM documents WHERE status = 'active'
-- metric: share of active documents in which no requirement was found
SELECT d.doc_id, d.title
FROM documents d
WHERE d.status = 'active'
  AND d.doc_id NOT IN (SELECT doc_id FROM run_requirements)
