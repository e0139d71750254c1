-- The rows of a table of the snapshot being updated whose key is in $keys (a list, or a query of
-- one column), replaced with what the table holds now ($rows).
-- Parameters: $table, $key, $keys, $rows.
DELETE FROM published.$table WHERE $key IN $keys;
INSERT INTO published.$table SELECT * FROM $rows t WHERE t.$key IN $keys;
