-- Format 5 (9652240, 2026-11-26): every attempt of a retried run kept in its row.

-- The earlier attempts of a run that a retried flow run continued: what each ended as, and why.
ALTER TABLE runs ADD COLUMN IF NOT EXISTS attempts JSON;
