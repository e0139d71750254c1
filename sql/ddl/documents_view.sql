-- `documents`: one row per ingested document with its text, in the column order of the table it
-- replaced (see document_rows in warehouse.sql).
CREATE OR REPLACE VIEW documents AS
SELECT r.doc_id, r.source_id, r.path, r.format, r.source_type, r.title, r.citation,
       r.jurisdiction, r.url, r.effective_date, r.retrieved, r.hierarchy, r.metadata, t.text,
       r.sha256, r.status, r.first_run, r.last_run, r.changed_run, r.n_chars
FROM document_rows r
LEFT JOIN document_texts t USING (sha256);
