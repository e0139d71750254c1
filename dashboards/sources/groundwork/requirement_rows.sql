-- The register's rows, for the drill-down tables: one row per current requirement.
SELECT requirement_id, modality, jurisdiction, source_type, source_citation, label_path, exact_quote AS quote
FROM current_requirements
