-- The published answers, in question order, for answers.md.
SELECT question_id, question, result, final_answer, grounding_confidence, verified_count
FROM current_answers
ORDER BY question_id
