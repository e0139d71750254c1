-- The run's requirements as Great Expectations sees them: with their word count (as the
-- quote_length gate counts words) and whether the quote is the document text at its offsets.
SELECT r.requirement_id, r.doc_id, r.char_start, r.char_end, r.exact_quote, r.modality,
       r.extraction_confidence,
       len(string_split_regex(trim(r.exact_quote), '\s+')) AS quote_words,
       coalesce(substring(d.text, r.char_start + 1, r.char_end - r.char_start) = r.exact_quote,
                false) AS quote_at_offsets
FROM {requirements} r
LEFT JOIN documents d USING (doc_id)
ORDER BY r.requirement_id
