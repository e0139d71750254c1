-- How many model responses the cache holds.
SELECT count(*) FROM model_cache
