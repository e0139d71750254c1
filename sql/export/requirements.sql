-- The run's requirements ($requirements, a relation), by ID, as exported.
-- Parameters: $requirements.
SELECT requirement_id, source_id, doc_id, chunk_id, label_path, char_start, char_end, exact_quote,
       lead_in_quote, lead_in_start, lead_in_end, sentence_start, sentence_end, long_quote,
       modality, trigger, subject,
       extraction_confidence, extractor, extractor_version, canonical_key, first_run
FROM $requirements
ORDER BY requirement_id
