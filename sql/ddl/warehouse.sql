-- The warehouse's own tables. Stage outputs (chunks, requirements, ...) are Parquet files under
-- tables/, reached through the views in sql/views/; what lives here is state that must change
-- transactionally: documents, sources, the ID registry, runs, checks and rejections.
--
-- This is format 1, the layout of main up to 3f02a35 (2026-11-22); every later change is a step
-- in sql/migrations/ (groundwork/warehouse/schema.py), which a new warehouse takes too.
-- Written with IF NOT EXISTS throughout, so that it also brings an older warehouse up to it.

-- Documents are two tables and a view. `document_rows` holds what a run updates in place; the
-- text lives in `document_texts`, one row per distinct text (by its sha256), only ever appended
-- to or deleted from. DuckDB rewrites a whole column at checkpoint when any of its values is
-- updated, so a 1 % change of a large corpus updating `text` in place rewrote all of the text
-- (seconds); appending the new texts costs what they weigh. Read documents through the view.
-- doc_id is unique without a key index (see merge_documents.sql); the review's
-- documents_unique check holds every run to it.
CREATE TABLE IF NOT EXISTS document_rows (
    doc_id          VARCHAR NOT NULL,
    source_id       VARCHAR,
    path            VARCHAR,
    format          VARCHAR,
    source_type     VARCHAR,
    title           VARCHAR,
    citation        VARCHAR,
    jurisdiction    VARCHAR,
    url             VARCHAR,
    effective_date  VARCHAR,
    retrieved       VARCHAR,
    hierarchy       VARCHAR[],
    metadata        VARCHAR,
    sha256          VARCHAR,      -- of the text: the key into document_texts
    status          VARCHAR,      -- active | removed
    first_run       VARCHAR,
    last_run        VARCHAR,
    changed_run     VARCHAR,      -- the run in which the text last changed
    n_chars         BIGINT        -- length of the text, so corpus size never reads the text
);

-- No key constraint on purpose: an index here would be rewritten at every checkpoint. Writers
-- insert a text only when its sha256 is absent (sql/ingest/merge_documents.sql).
CREATE TABLE IF NOT EXISTS document_texts (
    sha256          VARCHAR NOT NULL,
    text            VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS sources (
    source_id       VARCHAR PRIMARY KEY,  -- S1, S2, ... never reused
    seq             INTEGER NOT NULL,
    canonical_key   VARCHAR NOT NULL UNIQUE,
    source_type     VARCHAR,
    title           VARCHAR,
    citation        VARCHAR,
    jurisdiction    VARCHAR,
    url             VARCHAR,
    effective_date  VARCHAR,
    first_run       VARCHAR,
    last_run        VARCHAR
);

-- requirement_id and canonical_key are each unique, without key indexes: DuckDB rewrites an index
-- whole at every checkpoint, a cost every nightly run would pay on a large register.
-- sql/registry/assign_ids.sql only inserts keys it does not hold, numbered after the highest,
-- and the hard check registry_ids_stable holds every run to both.
CREATE TABLE IF NOT EXISTS requirement_registry (
    requirement_id  VARCHAR NOT NULL,     -- REQ-S0001 / REQ-P0001, never reused
    prefix          VARCHAR NOT NULL,     -- S (statutes, regulations) | P (policies)
    seq             INTEGER NOT NULL,
    canonical_key   VARCHAR NOT NULL,
    source_id       VARCHAR NOT NULL,
    normalised_quote VARCHAR NOT NULL,
    status          VARCHAR NOT NULL,     -- active | retired
    first_run       VARCHAR NOT NULL,
    last_run        VARCHAR NOT NULL,     -- the last run that registered its source (extracted it)
    retired_run     VARCHAR
);

CREATE TABLE IF NOT EXISTS runs (
    run_id          VARCHAR PRIMARY KEY,
    flow_run_id     VARCHAR,
    status          VARCHAR NOT NULL,     -- running | published | failed
    started_at      TIMESTAMP NOT NULL,
    finished_at     TIMESTAMP,
    corpus          VARCHAR,
    corpus_hash     VARCHAR,
    config          JSON,
    config_hash     VARCHAR,
    counts          JSON,
    timings         JSON,
    error           VARCHAR
);

CREATE TABLE IF NOT EXISTS rejected_documents (
    run_id          VARCHAR NOT NULL,
    path            VARCHAR NOT NULL,
    record          VARCHAR,
    doc_id          VARCHAR,
    reason          VARCHAR NOT NULL,
    detail          VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS check_results (
    run_id          VARCHAR NOT NULL,
    check_name      VARCHAR NOT NULL,
    table_name      VARCHAR NOT NULL,
    severity        VARCHAR NOT NULL,     -- hard | soft
    metric          VARCHAR NOT NULL,
    threshold       DOUBLE,
    value           DOUBLE,
    passed          BOOLEAN NOT NULL,
    offending_rows  BIGINT NOT NULL,
    sample          JSON
);

CREATE TABLE IF NOT EXISTS publications (
    table_name      VARCHAR PRIMARY KEY,
    run_id          VARCHAR NOT NULL,
    published_at    TIMESTAMP NOT NULL
);

CREATE TABLE IF NOT EXISTS rejected_questions (
    run_id          VARCHAR NOT NULL,
    path            VARCHAR NOT NULL,
    line            INTEGER,
    question_id     VARCHAR,
    reason          VARCHAR NOT NULL
);

-- Model responses, keyed by what produced them: a re-run with unchanged inputs makes no call.
-- Replies are kept whether or not they parsed; failed requests (timeouts, 5xx) are not.
CREATE TABLE IF NOT EXISTS model_cache (
    stage             VARCHAR NOT NULL,
    prompt_version    VARCHAR NOT NULL,
    model             VARCHAR NOT NULL,
    input_hash        VARCHAR NOT NULL,   -- sha256 of the request: messages, schema, settings
    response          VARCHAR NOT NULL,   -- the raw completion text
    prompt_tokens     INTEGER,
    completion_tokens INTEGER,
    created_at        TIMESTAMP NOT NULL,
    run_id            VARCHAR,
    PRIMARY KEY (stage, prompt_version, model, input_hash)
);

-- What a model stage dropped or could not get: failed calls, quotes that are not verbatim,
-- citations outside the allowed list, claims without support. One row per item and reason.
CREATE TABLE IF NOT EXISTS model_rejections (
    run_id          VARCHAR NOT NULL,
    stage           VARCHAR NOT NULL,     -- extract | verify | compose
    item            VARCHAR NOT NULL,     -- chunk_id, question_id/requirement_id, question_id
    reason          VARCHAR NOT NULL,
    detail          VARCHAR NOT NULL
);

-- Per-stage model usage of a run: calls, cache hits, tokens, retries, failures, latency.
ALTER TABLE runs ADD COLUMN IF NOT EXISTS model_usage JSON;

-- What a run was asked to do, hashed: corpus files, questions file, config and stage versions.
-- A run whose fingerprint equals the published run's has nothing to do (status 'unchanged').
ALTER TABLE runs ADD COLUMN IF NOT EXISTS input_fingerprint VARCHAR;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS reused_run VARCHAR;   -- for 'unchanged' runs
ALTER TABLE runs ADD COLUMN IF NOT EXISTS collected_at TIMESTAMP;  -- files removed by `gc`

-- Files whose every document was ingested, with their content hash and the parse settings used:
-- the next run skips parsing a file whose hash and settings are the same.
CREATE TABLE IF NOT EXISTS corpus_files (
    path            VARCHAR PRIMARY KEY,
    file_sha256     VARCHAR NOT NULL,
    parse_key       VARCHAR NOT NULL,     -- hash of the settings that shape parsing
    last_run        VARCHAR NOT NULL
);
ALTER TABLE runs ADD COLUMN IF NOT EXISTS code_version VARCHAR;
-- size and mtime at the last clean ingest: an unchanged stat means an unchanged file, unread
ALTER TABLE corpus_files ADD COLUMN IF NOT EXISTS size BIGINT;
ALTER TABLE corpus_files ADD COLUMN IF NOT EXISTS mtime_ns BIGINT;
