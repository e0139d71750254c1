-- The warehouse reached a format (by its creation or a migration).
-- Parameters: $format, $groundwork_version.
INSERT INTO warehouse_format VALUES ($format, now()::TIMESTAMP, $groundwork_version)
