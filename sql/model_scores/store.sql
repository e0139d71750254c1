-- Add the scores registered as `new_outputs`; an input already scored keeps its first score.
-- Parameters: $model_version.
INSERT OR IGNORE INTO model_scores
SELECT $model_version, input_hash, output, now()::TIMESTAMP
FROM new_outputs
