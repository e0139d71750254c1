-- What changed in the register from one run to another, for `groundwork diff` and a report's
-- changes.md: $changes is the requirement_changes macro of the two runs (sql/views/changes.sql;
-- groundwork/warehouse/comparisons.py), or the rows a publication kept of it
-- (sql/diff/keep_latest.sql).
-- Parameters: $changes.
SELECT * FROM $changes ORDER BY doc_id, label_path, change
