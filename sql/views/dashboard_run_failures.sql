-- Dashboard: what each run rejected and which checks it failed, oldest first. Every run has a
-- row, including `unchanged` ones (all zero). Hard check failures block publication; soft ones
-- (coverage thresholds, the Great Expectations suite) are reported only.
CREATE OR REPLACE VIEW dashboard_run_failures AS
WITH rejected AS (
    SELECT run_id, count(*) AS rejected_documents,
           string_agg(DISTINCT reason, ', ' ORDER BY reason) AS rejection_reasons
    FROM rejected_documents GROUP BY run_id
), bad_questions AS (
    SELECT run_id, count(*) AS rejected_questions FROM rejected_questions GROUP BY run_id
), failed AS (
    SELECT run_id,
           count(*) FILTER (WHERE NOT passed AND severity = 'hard') AS failed_hard_checks,
           count(*) FILTER (WHERE NOT passed AND severity = 'soft') AS failed_soft_checks,
           string_agg(check_name, ', ' ORDER BY check_name) FILTER (WHERE NOT passed)
               AS failed_checks
    FROM check_results GROUP BY run_id
)
SELECT r.run_id, r.started_at, r.status,
       coalesce(x.rejected_documents, 0) AS rejected_documents, x.rejection_reasons,
       coalesce(q.rejected_questions, 0) AS rejected_questions,
       coalesce(f.failed_hard_checks, 0) AS failed_hard_checks,
       coalesce(f.failed_soft_checks, 0) AS failed_soft_checks,
       f.failed_checks, r.error
FROM runs r
LEFT JOIN rejected x USING (run_id)
LEFT JOIN bad_questions q USING (run_id)
LEFT JOIN failed f USING (run_id)
WHERE r.status <> 'migrated'  -- a warehouse's migration, not a run
ORDER BY r.started_at;
