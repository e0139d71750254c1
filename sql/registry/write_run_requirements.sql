-- The run's requirements (sql/registry/run_requirements.sql) as one Parquet part.
COPY ({requirements}) TO {path} (FORMAT parquet, COMPRESSION zstd)
