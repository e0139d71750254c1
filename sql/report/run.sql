-- The run a report is about, as the runs table records it: its provenance block. A run being
-- published has no counts or corpus hash yet (they are recorded when it ends).
-- Parameters: $run_id.
SELECT run_id, status, started_at, finished_at, corpus, corpus_hash, input_fingerprint,
       config, config_hash, code_version,
       CAST(json_extract(counts, '$.documents') AS BIGINT) AS documents
FROM runs
WHERE run_id = $run_id
