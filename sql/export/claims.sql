-- The run's atomic claims with their verdicts before and after citation correction.
-- Parameters: $claims.
SELECT claim_id, statement_id, question_id, ordinal, text, published_text, requirement_ids,
       depth, verdict_before, verdict, reason, issues, support, action
FROM $claims
ORDER BY question_id, statement_id, ordinal
