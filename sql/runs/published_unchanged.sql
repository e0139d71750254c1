-- The published run, if it was asked exactly what this run is asked (same input fingerprint)
-- and recorded what it produced (a run killed after publishing did not: it is not reused).
SELECT r.run_id, r.counts, r.timings
FROM runs r
JOIN publications p ON p.run_id = r.run_id AND p.table_name = 'requirements'
WHERE r.input_fingerprint = $input_fingerprint AND r.status = 'published'
  AND r.counts IS NOT NULL
