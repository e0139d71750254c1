-- The lineage of a run that reuses $reused: the documents it processed itself are in its own
-- parts; every other active document unchanged since $reused is where $reused's lineage says.
-- Parameters: $run_id, $processed, $reused_lineage, $reused, $target.
COPY (
    SELECT DISTINCT doc_id, $run_id AS from_run FROM $processed
    UNION ALL
    SELECT l.doc_id, l.from_run
    FROM read_parquet($reused_lineage) l
    JOIN documents d USING (doc_id)
    WHERE d.status = 'active' AND d.changed_run <= $reused
      AND l.doc_id NOT IN (SELECT doc_id FROM $processed)
) TO $target (FORMAT parquet)
