-- The set-aside registry's rows into the keyless table (same columns, same order).
INSERT INTO requirement_registry SELECT * FROM requirement_registry_keyed;
DROP TABLE requirement_registry_keyed;
