-- One batch of parsed documents (the registered Arrow table parsed_batch) into incoming_documents.
INSERT INTO incoming_documents BY NAME SELECT * FROM parsed_batch
