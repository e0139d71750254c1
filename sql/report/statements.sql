-- The statements of one run. SELECT *: runs written before statements had a `verdict` column
-- lack it, and the report derives it for them.
-- Parameters: $statements.
SELECT *
FROM $statements
ORDER BY question_id, ordinal
