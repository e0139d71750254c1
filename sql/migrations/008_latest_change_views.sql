-- Format 8 (2026-11-28): the latest_* change views name their two runs, and are empty until two.
-- Before, they found the two latest published runs by a subquery (DuckDB read every run's
-- requirement parts) and compared a first publication with nothing (its whole register
-- `added`). They are dropped here; the migration makes them again after its last step
-- (groundwork/warehouse/views.py), as every publication does. No table changes.

DROP VIEW IF EXISTS latest_requirement_changes;

DROP VIEW IF EXISTS latest_answer_changes;
