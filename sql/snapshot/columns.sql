-- The columns of a relation with their types, in order: a table kept from the previous snapshot
-- must have those of what the snapshot's table holds now.
-- Parameters: $relation.
SELECT column_name, column_type FROM (DESCRIBE $relation)
