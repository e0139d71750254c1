-- The newest run that did work (not `unchanged`), for --from-stage without --run.
SELECT run_id FROM runs WHERE status <> 'unchanged' ORDER BY started_at DESC LIMIT 1
