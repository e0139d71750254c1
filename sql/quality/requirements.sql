-- The run's requirements as Great Expectations sees them: whether each has a quote, its word
-- count (as the quote_length gate counts words) and whether the quote is the document text at
-- its offsets. Not the quotes themselves: no expectation shows them, and on ten times the bench
-- corpus they were most of the job's memory (BENCHMARKS.md, "Great Expectations Data Docs").
-- Parameters: $requirements.
SELECT r.requirement_id, r.char_start, r.char_end, r.modality,
       r.exact_quote IS NOT NULL AS has_quote,
       len(string_split_regex(trim(r.exact_quote), '\s+')) AS quote_words,
       coalesce(substring(d.text, r.char_start + 1, r.char_end - r.char_start) = r.exact_quote,
                false) AS quote_at_offsets
FROM $requirements r
LEFT JOIN documents d USING (doc_id)
ORDER BY r.requirement_id
