-- The publication this snapshot holds: one row.
SELECT run_id, published_at, documents::BIGINT AS documents,
       requirements::BIGINT AS requirements, answers::BIGINT AS answers
FROM published_run
