-- The documents of the sources the run registers itself (a relation for reuse/lineage).
(SELECT doc_id FROM documents
 WHERE status = 'active' AND source_id IN (SELECT source_id FROM registered_sources))
