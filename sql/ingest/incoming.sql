-- Staging for one run's parsed documents; merged into documents by merge_documents.sql.
CREATE OR REPLACE TEMP TABLE incoming_documents (
    doc_id          VARCHAR,
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
    text            VARCHAR,
    sha256          VARCHAR
);
