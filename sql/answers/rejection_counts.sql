-- Per question, how many candidate requirements were rejected and why (for missing_evidence).
-- Parameters: $verifications.
SELECT question_id, rejection_reason, count(*) AS n
FROM $verifications
WHERE NOT verified
GROUP BY ALL
ORDER BY question_id, n DESC, rejection_reason
