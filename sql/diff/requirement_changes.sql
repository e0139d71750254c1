-- What changed in the register from run $run_a to run $run_b (the requirement_changes macro,
-- sql/views/changes.sql), for `groundwork diff`.
-- Parameters: $run_a, $run_b.
SELECT * FROM requirement_changes($run_a, $run_b) ORDER BY doc_id, label_path, change
