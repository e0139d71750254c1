SELECT path, file_sha256 FROM corpus_files WHERE parse_key = $parse_key
