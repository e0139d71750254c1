SELECT * FROM $questions ORDER BY question_id
