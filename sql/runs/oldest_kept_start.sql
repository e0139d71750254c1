-- When the oldest run whose files gc keeps started, as seconds since the epoch (TIMESTAMPTZ
-- first: started_at holds the session's local time, and epoch() of it must be UTC's).
SELECT epoch(min(started_at)::TIMESTAMPTZ)
FROM runs
WHERE collected_at IS NULL AND status NOT IN ('unchanged', 'migrated')
