-- The documents of the current corpus without their text (the text stays in groundwork.duckdb:
-- on a large corpus it is most of the file, and no dashboard tile shows it).
(SELECT * FROM document_rows WHERE status = 'active' ORDER BY doc_id)
