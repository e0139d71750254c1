-- The warehouse reached a format (by its creation or a migration).
INSERT INTO warehouse_format VALUES ($format, now()::TIMESTAMP, $groundwork_version)
