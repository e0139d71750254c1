-- The files this run parsed, as record_files.sql reads them, from the run's list of files to parse
-- (groundwork/ingest/changed.py): never a table of them in memory.
-- Parameters: $to_parse.
CREATE OR REPLACE TEMP VIEW parsed_files AS
SELECT rel AS path, sha256 AS file_sha256, size, mtime_ns, meta_key
FROM read_parquet($to_parse)
