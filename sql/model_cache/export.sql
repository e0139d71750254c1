COPY (SELECT * FROM model_cache ORDER BY stage, prompt_version, model, input_hash)
TO $path (FORMAT parquet)
