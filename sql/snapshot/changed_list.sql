-- The documents of `changed_documents` (sql/snapshot/changed_documents.sql), in order, and how
-- many documents the run has.
SELECT coalesce(list(doc_id ORDER BY doc_id), []),
       (SELECT count(*) FROM document_rows WHERE status = 'active')
FROM changed_documents
