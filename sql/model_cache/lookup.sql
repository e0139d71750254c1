-- Stored responses for the keys registered as `wanted_keys`.
SELECT c.stage, c.prompt_version, c.model, c.input_hash, c.response
FROM model_cache c
JOIN wanted_keys w USING (stage, prompt_version, model, input_hash)
