SELECT count(*) FROM model_cache
