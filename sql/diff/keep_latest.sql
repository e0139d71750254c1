-- A publication's comparison with the run published before it, made once: the rows of view
-- $view (latest_requirement_changes or latest_answer_changes, sql/views/changes.sql), kept for
-- the run's changes.md and for its snapshot's table of that name, which would otherwise each
-- compare the two runs' whole requirement tables.
-- Parameters: $view.
CREATE OR REPLACE TEMP TABLE kept_$view AS SELECT * FROM $view
