-- The run's citations, with whether the cited requirement was verified for that question.
-- Parameters: $citations, $verifications.
SELECT c.statement_id, c.question_id, c.requirement_id, c.marker, c.role,
       coalesce(v.verified, false) AS verified_for_question
FROM $citations c
LEFT JOIN $verifications v
       ON v.question_id = c.question_id AND v.requirement_id = c.requirement_id AND v.verified
ORDER BY c.statement_id, c.requirement_id
