-- The published register with its document's citation, title, URL, jurisdiction and type joined
-- in: a dashboard shows "45 CFR 164.404" beside a quote without a join to `sources`.
-- Not sorted: an ORDER BY here materialised every requirement (the quotes included) at once, which
-- on ten times the bench corpus ran out of the run's DuckDB memory limit (BENCHMARKS.md, "10×
-- the bench corpus"); without it the statement streams, holding only the documents' columns it
-- joins. Readers sort as they need. $requirements: current_requirements, or some documents' rows
-- of it (groundwork/warehouse/snapshot_update.py).
-- Parameters: $requirements.
(SELECT r.*, d.citation AS source_citation, d.title AS source_title, d.url AS source_url,
        d.jurisdiction, d.source_type
 FROM $requirements r
 LEFT JOIN document_rows d USING (doc_id))
