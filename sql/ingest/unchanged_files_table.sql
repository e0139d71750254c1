-- The files of this run whose content, parse settings and metadata are those of their last clean
-- ingest, filled a listing batch at a time by add_unchanged.sql: they are not parsed again.
CREATE OR REPLACE TEMP TABLE unchanged_files (path VARCHAR)
