-- Format 6 (dc4edc7, merged in cbc5d0e, 2026-11-26): metadata files (sidecars, folder defaults).

-- which metadata files (sidecar, folder defaults) applied, at which content: editing one parses
-- the files it applies to again
ALTER TABLE corpus_files ADD COLUMN IF NOT EXISTS meta_key VARCHAR;
