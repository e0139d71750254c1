-- Copy the reused run's requirements of the sources this run does not register itself
-- (zstd level 1, as reuse/copy_rows).
COPY (
    SELECT t.*
    FROM read_parquet({source}, hive_partitioning = false) t
    WHERE t.source_id NOT IN (SELECT source_id FROM registered_sources)
) TO {target} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)
