-- Remember the files parsed cleanly this run (registered as `parsed_files`); forget files that
-- are gone from the corpus or were rejected, so they are parsed again next time.
-- Parameters: $run_id, $parse_key.
DELETE FROM corpus_files
WHERE path NOT IN (SELECT path FROM unchanged_files)
  AND path NOT IN (SELECT path FROM parsed_files);
DELETE FROM corpus_files WHERE path IN (SELECT path FROM rejected_documents WHERE run_id = $run_id);
INSERT OR REPLACE INTO corpus_files
    (path, file_sha256, parse_key, last_run, size, mtime_ns, meta_key)
SELECT path, file_sha256, $parse_key, $run_id, size, mtime_ns, meta_key
FROM parsed_files
WHERE path NOT IN (SELECT path FROM rejected_documents WHERE run_id = $run_id);
