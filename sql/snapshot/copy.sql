-- A relation of groundwork.duckdb copied into the snapshot as a table of the same name, so that a
-- query written against the warehouse runs unchanged against published.duckdb.
-- Parameters: $relation.
CREATE TABLE published.$relation AS SELECT * FROM $relation
