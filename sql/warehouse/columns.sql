-- The column names of a table or view of the warehouse (none if it does not exist).
-- Parameters: $name.
SELECT column_name FROM information_schema.columns WHERE table_name = $name
