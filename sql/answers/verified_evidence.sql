-- What the composer may use: verified requirements only, with the source fields it shows; the
-- trained gate's best-scored first (the rules' gate has no score: its best-covered first).
-- Parameters: $verifications, $requirements.
SELECT v.question_id, v.chunk_rank, v.requirement_id, r.exact_quote, r.lead_in_quote,
       r.normalised_quote, r.modality, r.trigger, r.subject, r.label_path, r.doc_id, d.citation, d.title,
       d.source_type, d.jurisdiction
FROM $verifications v
JOIN $requirements r USING (requirement_id)
JOIN documents d USING (doc_id)
WHERE v.verified
ORDER BY v.question_id, v.score DESC NULLS LAST, v.quote_coverage DESC, v.chunk_rank, r.doc_id, r.char_start
