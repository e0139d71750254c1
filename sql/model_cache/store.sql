-- Add the responses registered as `new_responses`; a key already stored keeps its first reply.
INSERT OR IGNORE INTO model_cache
SELECT stage, prompt_version, model, input_hash, response, prompt_tokens, completion_tokens,
       now()::TIMESTAMP, run_id
FROM new_responses
