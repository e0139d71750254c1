-- The register: requirements counted by jurisdiction, source type, modality and document.
SELECT jurisdiction, source_type, modality, doc_id, citation, title,
       requirements::BIGINT AS requirements, high_confidence::BIGINT AS high_confidence,
       list_items::BIGINT AS list_items, run_id
FROM dashboard_requirements
