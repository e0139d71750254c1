-- The number of rows of a run's whole table (a relation: groundwork/warehouse/store.py).
-- Parameters: $table.
SELECT count(*) FROM $table
