-- Copy a reused run's rows (chunks or candidates) of the documents unchanged since that run.
-- No ORDER BY (readers sort) and zstd level 1: both halve the copy's time for the same rows.
COPY (
    SELECT t.*
    FROM read_parquet({source}, hive_partitioning = false) t
    WHERE t.doc_id IN (SELECT doc_id FROM documents
                       WHERE status = 'active' AND changed_run <= {reused})
) TO {target} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)
