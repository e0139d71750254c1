-- Migrate a warehouse whose `documents` is still one table, text included, to document_rows and
-- document_texts (created empty by warehouse.sql); documents_view.sql then recreates `documents`
-- as a view over them. Runs once, in the writer's first connection after the upgrade.
INSERT INTO document_rows
SELECT doc_id, source_id, path, format, source_type, title, citation, jurisdiction, url,
       effective_date, retrieved, hierarchy, metadata, sha256, status, first_run, last_run,
       changed_run, length(text)
FROM documents;

INSERT INTO document_texts
SELECT DISTINCT sha256, text FROM documents;

DROP TABLE documents;
