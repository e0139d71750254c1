-- How many items the model stages of run $run_id rejected.
-- Parameters: $run_id.
SELECT count(*) FROM model_rejections WHERE run_id = $run_id
