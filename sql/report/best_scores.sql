-- Each question's best gate-model score among its candidates (NULL where the rules decided): a
-- model's score of one quote is said beside it.
-- Parameters: $verifications.
SELECT question_id, max(score) AS best_score
FROM $verifications
GROUP BY question_id
ORDER BY question_id
