-- The published run ($published: sql/runs/published.sql), if it was asked exactly what this run
-- is asked (same $input_fingerprint) and recorded what it produced (a run killed after
-- publishing did not: it is not reused): its run_id, counts and timings.
-- Parameters: $published, $input_fingerprint.
SELECT r.run_id, r.counts, r.timings
FROM runs r
WHERE r.run_id IN ($published)
  AND r.input_fingerprint = $input_fingerprint AND r.status = 'published'
  AND r.counts IS NOT NULL
