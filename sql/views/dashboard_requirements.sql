-- Dashboard: the published register by jurisdiction, source type, modality and document, one row
-- per combination, so a BI tool can slice and sum `requirements` along any of them.
CREATE OR REPLACE VIEW dashboard_requirements AS
SELECT d.jurisdiction, d.source_type, r.modality, r.doc_id, d.citation, d.title,
       count(*) AS requirements,
       count(*) FILTER (WHERE r.extraction_confidence = 'high') AS high_confidence,
       count(*) FILTER (WHERE r.lead_in_quote IS NOT NULL) AS list_items,
       r.run_id
FROM current_requirements r
JOIN documents d USING (doc_id)
GROUP BY ALL
ORDER BY d.jurisdiction, d.source_type, r.modality, r.doc_id;
