SELECT * FROM answer_changes($run_a, $run_b) ORDER BY question_id
