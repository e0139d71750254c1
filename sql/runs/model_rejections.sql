-- Replace a stage's rejections for the run with the rows registered as `new_rejections`
-- (a retried or recomposed stage records what its latest attempt dropped, once).
-- Parameters: $run_id, $stage.
DELETE FROM model_rejections WHERE run_id = $run_id AND stage = $stage;
INSERT INTO model_rejections SELECT run_id, stage, item, reason, detail FROM new_rejections;
