-- The latest run that ran stages (an unchanged run and a warehouse's migration ran none).
SELECT run_id FROM runs WHERE status NOT IN ('unchanged', 'migrated') ORDER BY started_at DESC LIMIT 1
