-- The published register with its document's citation, title, URL, jurisdiction and type joined
-- in: a dashboard shows "45 CFR 164.404" beside a quote without a join to `sources`.
CREATE TABLE published.current_requirements AS
SELECT r.*, d.citation AS source_citation, d.title AS source_title, d.url AS source_url,
       d.jurisdiction, d.source_type
FROM current_requirements r
LEFT JOIN document_rows d USING (doc_id)
ORDER BY r.requirement_id
