-- Called while holding the warehouse lock: a run still 'running' has no live process (the lock
-- dies with its holder), so it was killed. Say so, rather than leave it looking alive.
UPDATE runs
SET status = 'abandoned', finished_at = now()::TIMESTAMP,
    error = coalesce(error, 'the process died mid-run (found by the next run)')
WHERE status = 'running'
