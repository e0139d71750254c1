-- The run's requirements (sql/registry/run_requirements.sql) as one Parquet part, at zstd level 1
-- like every part pyarrow writes (DuckDB's default, level 3, took noticeably longer on the bench
-- corpus for a file only slightly smaller).
-- Parameters: $requirements, $path.
COPY ($requirements) TO $path (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)
