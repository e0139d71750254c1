-- Record a question file's line that was rejected: $run_id, the file's $path, its $line,
-- the $question_id it gave (if any) and the $reason.
-- Parameters: $run_id, $path, $line, $question_id, $reason.
INSERT INTO rejected_questions VALUES ($run_id, $path, $line, $question_id, $reason)
