-- The run's requirements table: candidates with their registered IDs, in document order.
SELECT r.requirement_id, c.canonical_key, c.source_id, c.doc_id, c.chunk_id, c.label_path,
       c.char_start, c.char_end, c.exact_quote, c.normalised_quote, c.modality, c.trigger,
       c.subject, c.lead_in_quote, c.lead_in_start, c.lead_in_end, c.sentence_start,
       c.sentence_end, c.long_quote, c.extraction_confidence,
       c.extractor, c.extractor_version, c.requirement_score, c.requirement_model, r.first_run
FROM run_candidates c
JOIN requirement_registry r USING (canonical_key)
ORDER BY c.doc_id, c.char_start
