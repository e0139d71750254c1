-- A migration of the warehouse (groundwork/warehouse/migrations.py), in the runs table: not a
-- run (status migrated, no stages, no tables); config says from which format, to which, and the
-- steps.
-- Parameters: $run_id, $started_at, $finished_at, $config.
INSERT INTO runs (run_id, status, started_at, finished_at, config)
VALUES ($run_id, 'migrated', $started_at, $finished_at, $config)
