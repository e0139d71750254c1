SELECT path, file_sha256, size, mtime_ns FROM corpus_files WHERE size IS NOT NULL
