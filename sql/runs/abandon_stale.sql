-- Called while holding the warehouse lock: a run still 'running' has no live process (the lock
-- dies with its holder), so it was killed. Say so, rather than leave it looking alive.
UPDATE runs
SET status = 'abandoned', finished_at = now()::TIMESTAMP,
    error = coalesce(error, 'the process died mid-run (found by the next run)')
WHERE status = 'running';

-- A run killed after its publication committed, before its end was recorded: published, but
-- with no counts or timings. Close it, saying so; the next run with its inputs runs afresh.
UPDATE runs
SET finished_at = now()::TIMESTAMP,
    error = coalesce(error, 'the process died after publishing, before it recorded its counts '
                            'and timings (found by the next run)')
WHERE status = 'published' AND finished_at IS NULL
