-- The verdicts on requirements verified for a question but not quoted in its answer (after the
-- first eight): the report lists them in the question's evidence appendix.
-- Parameters: $answers, $verifications.
WITH unused AS (
    SELECT question_id, unnest(unused_requirement_ids) AS requirement_id
    FROM $answers
)
SELECT u.question_id, u.requirement_id, v.rationale, v.quote_coverage, v.matched_terms,
       v.verifier, v.score, v.threshold
FROM unused u
LEFT JOIN $verifications v
  ON v.question_id = u.question_id AND v.requirement_id = u.requirement_id AND v.verified
ORDER BY u.question_id, u.requirement_id
