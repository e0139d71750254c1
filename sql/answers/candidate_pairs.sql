-- Every (question, requirement) pair the verifier judges: each requirement inside a retrieved chunk,
-- with only what the verifier may see: the question, the requirement and its chunk (with the
-- chunk's context: its document's title, citation and jurisdiction and its heading).
-- Parameters: $retrievals, $questions, $chunks, $requirements.
SELECT r.question_id, q.question, r.rank AS chunk_rank, r.chunk_id,
       c.char_start AS chunk_start, c.text AS chunk_text,
       req.requirement_id, req.exact_quote, req.char_start, req.char_end, req.lead_in_quote,
       req.modality, c.doc_id, c.heading, d.title, d.citation, d.jurisdiction
FROM $retrievals r
JOIN $questions q USING (question_id)
JOIN $chunks c USING (chunk_id)
JOIN $requirements req USING (chunk_id)
JOIN documents d ON d.doc_id = c.doc_id
ORDER BY r.question_id, r.rank, req.char_start
