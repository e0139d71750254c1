-- A run's requirements extracted before groundwork recorded each quote's sentence (extractor
-- versions before 1.4.0): the same rows with those columns null, so the run still exports.
-- Parameters: $requirements.
SELECT *, NULL::BIGINT AS sentence_start, NULL::BIGINT AS sentence_end,
       NULL::BOOLEAN AS long_quote
FROM $requirements
