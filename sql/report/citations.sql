-- Every citation of one run, with the verifier's verdict on the pair it cites: its reason, and
-- the figures the report says it in words from (the words matched, the model's score).
-- Parameters: $citations, $verifications.
SELECT c.statement_id, c.question_id, c.requirement_id, c.marker, c.role,
       v.rationale, v.quote_coverage, v.matched_terms, v.verifier, v.score, v.threshold
FROM $citations c
LEFT JOIN $verifications v
  ON v.question_id = c.question_id AND v.requirement_id = c.requirement_id AND v.verified
ORDER BY c.question_id, c.statement_id, c.requirement_id
