-- Write the whole model cache to the Parquet file $path (`groundwork cache export`), in key order.
-- Parameters: $path.
COPY (SELECT * FROM model_cache ORDER BY stage, prompt_version, model, input_hash)
TO $path (FORMAT parquet)
