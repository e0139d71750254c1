-- A retried run replaces its own rejections rather than adding them twice.
-- Parameters: $run_id.
DELETE FROM rejected_documents WHERE run_id = $run_id
