-- A registry from before key indexes were dropped is set aside, so that warehouse.sql creates the
-- keyless table; registry_restore.sql then moves its rows over.
ALTER TABLE requirement_registry RENAME TO requirement_registry_keyed;
