SELECT count(*) FROM model_rejections WHERE run_id = $run_id
