-- Per question, how many candidate requirements were rejected and why (for missing_evidence),
-- and the names it asks about that the corpus never mentions, read back from the reason that
-- rejected them (groundwork/verify/absent.py; '' for none).
-- Parameters: $named, $verifications.
SELECT question_id, rejection_reason, count(*) AS n,
       max(regexp_extract(coalesce(rationale, ''), $named, 1)) AS named
FROM $verifications
WHERE NOT verified
GROUP BY question_id, rejection_reason
ORDER BY question_id, n DESC, rejection_reason
