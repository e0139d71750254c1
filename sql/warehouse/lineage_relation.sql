-- A run's table with a lineage (groundwork/warehouse/store.py): each document's rows from the parts of
-- the run its lineage ($lineage: the lineage file, or some documents' rows of it) names. $parts
-- lists only those runs' parts.
-- Parameters: $parts, $lineage.
(SELECT t.* EXCLUDE (run_id)
 FROM read_parquet($parts, hive_partitioning = true, union_by_name = true) t
 SEMI JOIN $lineage l ON l.doc_id = t.doc_id AND l.from_run = t.run_id)
