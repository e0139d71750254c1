-- What changed in the answers from run $run_a to run $run_b (the answer_changes macro,
-- sql/views/changes.sql), for `groundwork diff`.
-- Parameters: $run_a, $run_b.
SELECT * FROM answer_changes($run_a, $run_b) ORDER BY question_id
