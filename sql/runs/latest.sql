-- The newest run that did work (not `unchanged`, nor a warehouse's `migrated`), for
-- --from-stage without --run.
SELECT run_id FROM runs WHERE status NOT IN ('unchanged', 'migrated') ORDER BY started_at DESC LIMIT 1
