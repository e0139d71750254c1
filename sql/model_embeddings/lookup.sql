-- Stored vectors of one encoder version for the input hashes registered as `wanted_inputs`.
-- Parameters: $model_version.
SELECT e.input_hash, e.embedding
FROM model_embeddings e
JOIN wanted_inputs w USING (input_hash)
WHERE e.model_version = $model_version
