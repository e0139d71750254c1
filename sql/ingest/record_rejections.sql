-- The files and records ingest set aside (the registered Arrow table rejected_batch), for the run.
-- Parameters: $run_id.
INSERT INTO rejected_documents SELECT $run_id, * FROM rejected_batch
