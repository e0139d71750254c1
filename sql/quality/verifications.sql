-- The run's verifications ($verifications, a relation) as Great Expectations sees them.
-- Parameters: $verifications.
SELECT question_id, requirement_id, verified, rejection_reason, quote_coverage, chunk_coverage
FROM $verifications
ORDER BY question_id, requirement_id
