-- The requirements a set of citations points to, with what a footnote shows.
-- Parameters: $citations, $requirements.
SELECT DISTINCT c.requirement_id, r.label_path, r.exact_quote, d.citation, d.title, d.url,
       d.source_type
FROM $citations c
JOIN $requirements r USING (requirement_id)
JOIN documents d USING (doc_id)
ORDER BY c.requirement_id
