-- The files of one listing batch (the registered Arrow table listed_batch) that were parsed
-- cleanly under these parse settings, with this content hash and metadata key ('' for none, and
-- for rows from before there were any).
-- Parameters: $parse_key.
INSERT INTO unchanged_files
SELECT l.rel
FROM listed_batch l
JOIN corpus_files k
  ON k.path = l.rel
 AND k.parse_key = $parse_key
 AND k.file_sha256 = l.sha256
 AND coalesce(k.meta_key, '') = l.meta_key
