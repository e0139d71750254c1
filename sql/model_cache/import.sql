-- Add the model responses of the Parquet file $path (`groundwork cache import`); a key already
-- cached keeps its response.
-- Parameters: $path.
INSERT OR IGNORE INTO model_cache
SELECT stage, prompt_version, model, input_hash, response, prompt_tokens, completion_tokens,
       created_at, run_id
FROM read_parquet($path)
