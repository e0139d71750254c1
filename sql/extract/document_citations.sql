-- Every document's citation, for the model's extraction prompt (a chunk names where it is from).
SELECT doc_id, citation
FROM documents
