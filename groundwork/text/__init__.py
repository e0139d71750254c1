"""Legal text as structure: sentences, sections and labels, chunks, numbers, index terms, and the
words a reader uses for the pipeline's codes."""
