-- The number of rows of a run's whole table (a relation: groundwork/warehouse.py).
SELECT count(*) FROM $table
