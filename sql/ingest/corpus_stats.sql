-- Size and content hash of the active corpus: the hash changes when any document changes.
-- Parameters: $run_id.
SELECT count(*) AS documents,
       coalesce(sum(n_chars), 0) AS chars,
       sha256(coalesce(string_agg(doc_id || ':' || sha256, ',' ORDER BY doc_id), '')) AS corpus_hash,
       count(*) FILTER (WHERE changed_run = $run_id) AS changed
FROM document_rows
WHERE status = 'active'
