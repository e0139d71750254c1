-- A retried run replaces its own rejections rather than adding them twice.
DELETE FROM rejected_questions WHERE run_id = $run_id
