INSERT INTO rejected_questions VALUES ($run_id, $path, $line, $question_id, $reason)
