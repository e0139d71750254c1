SELECT question_id || ':' || requirement_id AS verification_id, question_id, requirement_id,
       chunk_id, chunk_rank, verified, rejection_reason, rationale, quote_coverage,
       chunk_coverage, matched_terms, verifier
FROM $verifications
ORDER BY question_id, requirement_id
