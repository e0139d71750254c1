-- The published run, if it was asked exactly what this run is asked (same input fingerprint).
SELECT r.run_id, r.counts, r.timings
FROM runs r
JOIN publications p ON p.run_id = r.run_id AND p.table_name = 'requirements'
WHERE r.input_fingerprint = $input_fingerprint AND r.status = 'published'
