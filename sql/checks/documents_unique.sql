-- check: documents_unique
-- table: documents
-- severity: hard
-- metric: doc_ids with more than one row (document_rows has no key index: merge_documents.sql)
SELECT doc_id, count(*) AS rows
FROM document_rows
GROUP BY doc_id
HAVING count(*) > 1
