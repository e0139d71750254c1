-- Size and content hash of the active corpus: the hash changes when any document changes.
SELECT count(*) AS documents,
       coalesce(sum(length(text)), 0) AS chars,
       sha256(coalesce(string_agg(doc_id || ':' || sha256, ',' ORDER BY doc_id), '')) AS corpus_hash,
       count(*) FILTER (WHERE changed_run = $run_id) AS changed
FROM documents
WHERE status = 'active'
