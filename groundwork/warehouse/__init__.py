"""The warehouse folder: the DuckDB file and its connections, locks, Parquet parts and their
lineage, views, schema and migrations, runs, publication, snapshot and garbage collection."""
