-- A table of the snapshot written whole from its rows: a relation of groundwork.duckdb copied as a
-- table of the same name (so that a query written against the warehouse runs unchanged against
-- published.duckdb), or the snapshot's own query (sql/snapshot/<table>.sql).
-- Parameters: $table, $rows.
CREATE TABLE published.$table AS SELECT * FROM $rows
