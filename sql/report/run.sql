-- The run a report is about, as the runs table records it.
SELECT run_id, started_at, corpus
FROM runs
WHERE run_id = $run_id
