-- Runs whose files `gc --keep N` may remove: not among the N newest runs that wrote tables,
-- not published (any table of it), not running, not collected before.
-- Parameters: $keep.
WITH ranked AS (
    SELECT run_id, status,
           row_number() OVER (ORDER BY started_at DESC) AS recency
    FROM runs
    WHERE status NOT IN ('unchanged', 'migrated') AND collected_at IS NULL
)
SELECT run_id FROM ranked
WHERE recency > $keep
  AND status <> 'running'
  AND run_id NOT IN (SELECT run_id FROM publications)
ORDER BY run_id
