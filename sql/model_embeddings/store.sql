-- Add the vectors registered as `new_outputs`; a text already encoded keeps its first vector.
-- Parameters: $model_version.
INSERT OR IGNORE INTO model_embeddings
SELECT $model_version, input_hash, output, now()::TIMESTAMP
FROM new_outputs
