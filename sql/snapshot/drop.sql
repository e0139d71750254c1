-- Drop a table of the snapshot being updated, to write it whole again (or for good).
-- Parameters: $table.
DROP TABLE published.$table
