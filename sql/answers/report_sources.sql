-- Every requirement an answer of the published run cites, with what a footnote shows.
SELECT c.question_id, c.statement_id, c.requirement_id, r.label_path, r.exact_quote,
       d.citation, d.title, d.url, d.source_type
FROM current_citations c
JOIN current_requirements r USING (requirement_id)
JOIN documents d USING (doc_id)
ORDER BY c.question_id, c.statement_id, c.requirement_id
