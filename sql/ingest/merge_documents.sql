-- Merge one run's ingested documents (temp table incoming_documents) into sources and documents.
-- A source is keyed by its URL (lower-cased), else by sha256(title || text); a key seen before keeps
-- its S<n>, and a field known now wins over an empty one (richer metadata is never lost).
-- Parameters: $run_id.

CREATE OR REPLACE TEMP MACRO source_key(url, title, text) AS
    CASE WHEN url IS NOT NULL AND trim(url) <> '' THEN lower(trim(url))
         ELSE sha256(coalesce(title, '') || text) END;

CREATE OR REPLACE TEMP TABLE incoming_sources AS
WITH keyed AS (
    SELECT *,
           source_key(url, title, text) AS canonical_key,
           (citation IS NOT NULL)::INT + (jurisdiction IS NOT NULL)::INT
             + (url IS NOT NULL)::INT + (effective_date IS NOT NULL)::INT AS richness
    FROM incoming_documents
)
SELECT canonical_key,
       min(doc_id) AS first_doc,
       first(source_type ORDER BY richness DESC, doc_id) AS source_type,
       first(title ORDER BY richness DESC, doc_id) AS title,
       first(citation ORDER BY richness DESC, doc_id) AS citation,
       first(jurisdiction ORDER BY richness DESC, doc_id) AS jurisdiction,
       first(url ORDER BY richness DESC, doc_id) AS url,
       first(effective_date ORDER BY richness DESC, doc_id) AS effective_date
FROM keyed
GROUP BY canonical_key;

UPDATE sources
SET source_type = coalesce(i.source_type, sources.source_type),
    title = coalesce(i.title, sources.title),
    citation = coalesce(i.citation, sources.citation),
    jurisdiction = coalesce(i.jurisdiction, sources.jurisdiction),
    url = coalesce(i.url, sources.url),
    effective_date = coalesce(i.effective_date, sources.effective_date),
    last_run = $run_id
FROM incoming_sources i
WHERE sources.canonical_key = i.canonical_key;

INSERT INTO sources
SELECT 'S' || (base.max_seq + row_number() OVER (ORDER BY i.first_doc, i.canonical_key)),
       base.max_seq + row_number() OVER (ORDER BY i.first_doc, i.canonical_key),
       i.canonical_key, i.source_type, i.title, i.citation, i.jurisdiction, i.url,
       i.effective_date, $run_id, $run_id
FROM incoming_sources i
CROSS JOIN (SELECT coalesce(max(seq), 0) AS max_seq FROM sources) base
WHERE i.canonical_key NOT IN (SELECT canonical_key FROM sources);

-- A text is stored once and only appended: see document_texts in sql/ddl/warehouse.sql.
INSERT INTO document_texts
SELECT DISTINCT sha256, text
FROM incoming_documents
WHERE sha256 NOT IN (SELECT sha256 FROM document_texts);

-- An update and an insert rather than an upsert: document_rows has no key index for one (DuckDB
-- rewrites an index whole at every checkpoint); incoming_documents has one row per doc_id.
-- `hierarchy` is set apart, only where it differs: a list column updated in place costs DuckDB a
-- rewrite of the whole column at checkpoint, and a changed text seldom changes the hierarchy.
CREATE OR REPLACE TEMP TABLE incoming_rows AS
SELECT i.doc_id, s.source_id, i.path, i.format, i.source_type, i.title, i.citation,
       i.jurisdiction, i.url, i.effective_date, i.retrieved, i.hierarchy, i.metadata, i.sha256,
       length(i.text) AS n_chars
FROM incoming_documents i
JOIN sources s ON s.canonical_key = source_key(i.url, i.title, i.text);

UPDATE document_rows
SET -- changed: anything chunks, candidates or IDs are made from (text, citation, source), so
    -- that incremental runs redo this document's stages (read before the update below)
    changed_run = CASE WHEN document_rows.sha256 = i.sha256
                            AND document_rows.status = 'active'
                            AND document_rows.citation IS NOT DISTINCT FROM i.citation
                            AND document_rows.source_type IS NOT DISTINCT FROM i.source_type
                            AND document_rows.source_id IS NOT DISTINCT FROM i.source_id
                       THEN document_rows.changed_run ELSE $run_id END,
    n_chars = i.n_chars,
    sha256 = i.sha256,
    status = 'active',
    last_run = $run_id
FROM incoming_rows i
WHERE document_rows.doc_id = i.doc_id;

-- The descriptive fields, only where one differs: a changed text seldom changes them, and each
-- column updated in place is rewritten at checkpoint in every row group it touches (1 % of the
-- documents, spread over the corpus, touch them all).
UPDATE document_rows
SET source_id = i.source_id,
    path = i.path,
    format = i.format,
    source_type = i.source_type,
    title = i.title,
    citation = i.citation,
    jurisdiction = i.jurisdiction,
    url = i.url,
    effective_date = i.effective_date,
    retrieved = i.retrieved,
    metadata = i.metadata
FROM incoming_rows i
WHERE document_rows.doc_id = i.doc_id
  AND (document_rows.source_id, document_rows.path, document_rows.format,
       document_rows.source_type, document_rows.title, document_rows.citation,
       document_rows.jurisdiction, document_rows.url, document_rows.effective_date,
       document_rows.retrieved, document_rows.metadata)
      IS DISTINCT FROM
      (i.source_id, i.path, i.format, i.source_type, i.title, i.citation, i.jurisdiction, i.url,
       i.effective_date, i.retrieved, i.metadata);

UPDATE document_rows
SET hierarchy = i.hierarchy
FROM incoming_rows i
WHERE document_rows.doc_id = i.doc_id
  AND document_rows.hierarchy IS DISTINCT FROM i.hierarchy;

INSERT INTO document_rows
SELECT doc_id, source_id, path, format, source_type, title, citation, jurisdiction, url,
       effective_date, retrieved, hierarchy, metadata, sha256, 'active', $run_id, $run_id,
       $run_id, n_chars
FROM incoming_rows
WHERE doc_id NOT IN (SELECT doc_id FROM document_rows);

-- Texts no document points to any more (replaced by a new version) are dropped.
DELETE FROM document_texts
WHERE sha256 NOT IN (SELECT sha256 FROM document_rows);

-- A document whose file was rejected this run keeps its last good version (nothing is lost);
-- one whose file is gone from the corpus is marked removed.
UPDATE document_rows
SET last_run = $run_id
WHERE status = 'active' AND last_run <> $run_id
  AND path IN (SELECT path FROM rejected_documents WHERE run_id = $run_id);

UPDATE document_rows
SET status = 'removed'
WHERE status = 'active' AND last_run <> $run_id;
