-- The run's requirements (sql/registry/run_requirements.sql) as one Parquet part, at zstd level 1
-- like every part pyarrow writes (DuckDB's default, level 3, cost 0.6 s more on the bench corpus's
-- 716 k requirements for a file 5 % smaller: BENCHMARKS.md, issue 24).
-- Parameters: $requirements, $path.
COPY ($requirements) TO $path (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)
