SELECT path, record, reason, detail
FROM rejected_documents
WHERE run_id = $run_id
ORDER BY path, record
