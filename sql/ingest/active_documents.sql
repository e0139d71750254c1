-- The documents of the current corpus, in the order every stage processes them.
SELECT doc_id, citation, text
FROM documents
WHERE status = 'active'
ORDER BY doc_id
