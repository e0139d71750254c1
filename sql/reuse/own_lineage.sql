-- The lineage of a run that reuses nothing: every document it processed is in its own parts.
-- Parameters: $run_id, $processed, $target.
COPY (
    SELECT DISTINCT doc_id, $run_id AS from_run FROM $processed
) TO $target (FORMAT parquet)
