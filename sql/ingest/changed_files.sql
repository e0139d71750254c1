-- The files of one listing batch (the registered Arrow table listed_batch) to parse this run: new,
-- changed in content or metadata, parsed under other settings, or rejected last time; in path
-- order, the order of the listing.
-- Parameters: $parse_key.
SELECT l.*
FROM listed_batch l
ANTI JOIN corpus_files k
  ON k.path = l.rel
 AND k.parse_key = $parse_key
 AND k.file_sha256 = l.sha256
 AND coalesce(k.meta_key, '') = l.meta_key
ORDER BY l.rel
