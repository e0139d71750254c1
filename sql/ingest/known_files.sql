-- The files parsed cleanly under these parse settings, with the content hash and the metadata
-- key (its sidecar and folder defaults; '' for none, and for rows from before there were any).
-- Parameters: $parse_key.
SELECT path, file_sha256, coalesce(meta_key, '') FROM corpus_files WHERE parse_key = $parse_key
