"""Reading the corpus: files listed and fingerprinted, parsed into documents with their metadata,
or rejected with the reason."""
