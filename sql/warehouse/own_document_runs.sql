-- Each document of a run's table without a lineage (a run written before lineage): the run itself,
-- whose parts ($rows) hold all its rows. The shape of a lineage.parquet (doc_id, from_run).
-- Parameters: $run_id, $rows.
(SELECT DISTINCT doc_id, $run_id AS from_run FROM $rows)
