-- The documents of the current corpus, in the order every stage processes them.
SELECT doc_id, citation, text, n_chars  -- n_chars: the size, without reading the text
FROM documents
WHERE status = 'active'
ORDER BY doc_id
