-- The documents run $run_id rejected at ingest, and why, by path.
-- Parameters: $run_id.
SELECT path, record, reason, detail
FROM rejected_documents
WHERE run_id = $run_id
ORDER BY path, record
