-- Stored scores of one model version for the input hashes registered as `wanted_inputs`.
-- Parameters: $model_version.
SELECT s.input_hash, s.score
FROM model_scores s
JOIN wanted_inputs w USING (input_hash)
WHERE s.model_version = $model_version
