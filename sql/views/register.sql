-- Views over the warehouse's own tables, recreated at every publication.

-- The register as a reader wants it: every ID ever issued, its status and its source.
CREATE OR REPLACE VIEW requirement_register AS
SELECT r.requirement_id, r.status, r.first_run, r.last_run, r.retired_run, r.source_id,
       s.citation, s.title, s.source_type, s.jurisdiction, s.url
FROM requirement_registry r
LEFT JOIN sources s USING (source_id);

-- The documents of the current corpus (removed ones stay in documents, marked removed).
CREATE OR REPLACE VIEW current_documents AS
SELECT * FROM documents WHERE status = 'active';

-- Rejections of the latest run, newest first: the "what did not load" dashboard tile.
CREATE OR REPLACE VIEW latest_rejections AS
SELECT rd.*
FROM rejected_documents rd
WHERE rd.run_id = (SELECT max(run_id) FROM runs WHERE status <> 'migrated');
