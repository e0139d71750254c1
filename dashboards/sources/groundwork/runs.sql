-- Every run: its status, how long it took (to its end, or to its publication for the run
-- published in this snapshot, which was still finishing when the snapshot was written), the
-- review checks it passed and failed, and the inputs it rejected.
SELECT r.run_id, r.status, r.started_at,
       round(epoch(coalesce(r.finished_at, p.published_at) - r.started_at))::BIGINT AS duration_s,
       count(c.check_name) FILTER (WHERE c.passed)::BIGINT AS checks_passed,
       count(c.check_name) FILTER (WHERE NOT c.passed)::BIGINT AS checks_failed,
       coalesce(f.rejected_documents, 0)::BIGINT AS rejected_documents,
       coalesce(f.rejected_questions, 0)::BIGINT AS rejected_questions,
       r.error
FROM runs r
LEFT JOIN published_run p USING (run_id)
LEFT JOIN check_results c USING (run_id)
LEFT JOIN dashboard_run_failures f USING (run_id)
GROUP BY ALL
