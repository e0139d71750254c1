SELECT model_usage FROM runs WHERE run_id = $run_id
