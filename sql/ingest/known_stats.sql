-- The size, mtime and content hash of each file at its last clean ingest, in path order (the
-- listing walks the corpus in that order and merges these in as it goes; rows from before they
-- were kept have no size, and are left out): a file whose size and mtime are unchanged is not
-- hashed again.
SELECT path, file_sha256, size, mtime_ns FROM corpus_files WHERE size IS NOT NULL ORDER BY path
