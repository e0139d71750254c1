SELECT question_id, requirement_id, verified, rejection_reason, quote_coverage, chunk_coverage
FROM $verifications
ORDER BY question_id, requirement_id
