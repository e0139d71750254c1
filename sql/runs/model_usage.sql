UPDATE runs SET model_usage = $model_usage WHERE run_id = $run_id
