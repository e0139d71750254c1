-- The questions of $questions (a run's questions as a relation), in question order.
-- Parameters: $questions.
SELECT * FROM $questions ORDER BY question_id
