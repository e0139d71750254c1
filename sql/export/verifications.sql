-- The run's verifications ($verifications, a relation), a verification's ID being its question
-- and its requirement, as exported.
-- Parameters: $verifications.
SELECT question_id || ':' || requirement_id AS verification_id, question_id, requirement_id,
       chunk_id, chunk_rank, verified, rejection_reason, rationale, quote_coverage,
       chunk_coverage, matched_terms, verifier
FROM $verifications
ORDER BY question_id, requirement_id
