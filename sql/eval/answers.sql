-- Each question's result (ANSWERED or NO_AUTHORITATIVE_EVIDENCE), for `groundwork eval`.
-- Parameters: $answers.
SELECT question_id, result
FROM $answers
ORDER BY question_id
