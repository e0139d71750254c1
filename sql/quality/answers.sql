-- The run's answers, with how many statements each has.
-- Parameters: $answers, $statements.
SELECT a.question_id, a.result, a.grounding_confidence, a.verified_count, a.final_answer,
       count(s.statement_id) AS statements
FROM $answers a
LEFT JOIN $statements s USING (question_id)
GROUP BY ALL
ORDER BY a.question_id
