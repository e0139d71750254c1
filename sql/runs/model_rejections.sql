-- Append the rows registered as `new_rejections` (run_id, stage, item, reason, detail).
INSERT INTO model_rejections SELECT run_id, stage, item, reason, detail FROM new_rejections
