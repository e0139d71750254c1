-- Copy a reused run's rows (chunks or candidates) of the documents unchanged since that run.
COPY (
    SELECT t.*
    FROM read_parquet({source}, hive_partitioning = false) t
    WHERE t.doc_id IN (SELECT doc_id FROM documents
                       WHERE status = 'active' AND changed_run <= {reused})
    ORDER BY t.doc_id, t.chunk_id, t.char_start
) TO {target} (FORMAT parquet, COMPRESSION zstd)
