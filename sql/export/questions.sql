SELECT question_id, question, topic, category, source_types, jurisdiction
FROM $questions
ORDER BY question_id
