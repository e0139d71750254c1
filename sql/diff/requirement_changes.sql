SELECT * FROM requirement_changes($run_a, $run_b) ORDER BY doc_id, label_path, change
