-- Format 2 (ebf1e75, 2026-11-25): caches for the models trained here.

-- Scores of the models trained here (models/), keyed by model version and input: a pair scored
-- once is never scored again by the same model (a retrained model has a new version).
CREATE TABLE IF NOT EXISTS model_scores (
    model_version VARCHAR NOT NULL,
    input_hash    VARCHAR NOT NULL,   -- sha256 of the texts the model read
    score         DOUBLE NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (model_version, input_hash)
);

-- Vectors of the encoders trained here, keyed the same way: a chunk is encoded once per
-- encoder version, so a rerun over an unchanged corpus encodes only the new questions.
CREATE TABLE IF NOT EXISTS model_embeddings (
    model_version VARCHAR NOT NULL,
    input_hash    VARCHAR NOT NULL,   -- sha256 of the text the model read
    embedding     FLOAT[] NOT NULL,   -- unit length
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (model_version, input_hash)
);
