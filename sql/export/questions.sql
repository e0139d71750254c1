-- The run's questions ($questions, a relation), in question order, as exported.
-- Parameters: $questions.
SELECT question_id, question, topic, category, source_types, jurisdiction
FROM $questions
ORDER BY question_id
