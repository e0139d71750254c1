-- The rows of a table of the snapshot being updated whose key is in $changed, replaced with what
-- the table holds now ($rows).
-- Parameters: $table, $key, $rows, $changed.
DELETE FROM published.$table WHERE $key IN (SELECT $key FROM $changed);
INSERT INTO published.$table SELECT * FROM $rows t WHERE t.$key IN (SELECT $key FROM $changed);
