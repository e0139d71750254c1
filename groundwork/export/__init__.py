"""What leaves a run for other tools and readers: the provenance export and its formats (JSON,
spreadsheets, OSCAL, CISO Assistant), answers.md, and the change report."""
