-- `groundwork runs`: the newest runs first, with what each produced and why it failed.
-- A run that published nothing new (unchanged) names the run it left in place as its outcome.
-- Parameters: $status, $limit.
SELECT run_id,
       status,
       strftime(started_at, '%Y-%m-%d %H:%M:%S') AS started,
       round(epoch(finished_at - started_at), 1) AS seconds,
       CAST(counts->>'documents' AS INTEGER) AS documents,
       CAST(counts->>'requirements' AS INTEGER) AS requirements,
       CAST(counts->>'questions' AS INTEGER) AS questions,
       CAST(counts->>'answered' AS INTEGER) AS answered,
       CAST(counts->>'rejected' AS INTEGER) AS rejected,
       coalesce(json_array_length(attempts), 0) + 1 AS attempts,
       error
FROM runs
WHERE $status IS NULL OR status = $status
ORDER BY started_at DESC, run_id DESC
LIMIT $limit
