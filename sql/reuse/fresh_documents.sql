-- The active documents this run must chunk and extract: those whose text changed after the
-- reused run, or that the reused run's lineage does not hold. Same order as
-- ingest/active_documents.
-- Parameters: $reused, $lineage.
SELECT doc_id, citation, text, n_chars  -- n_chars: the size, without reading the text
FROM documents
WHERE status = 'active'
  AND (changed_run > $reused
       OR doc_id NOT IN (SELECT doc_id FROM read_parquet($lineage)))
ORDER BY doc_id
