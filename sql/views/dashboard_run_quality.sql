-- Dashboard: answer quality of every run that composed answers, oldest first.
--   unsupported_rate  = statements judged UNSUPPORTED or CONTRADICTED / all statements
--   citation_coverage = (question, requirement) pairs cited / pairs verified for that question:
--                       how much of the verified evidence the answers actually quote
-- Runs whose files `gc` removed drop out (their row stays in `runs`).
CREATE OR REPLACE VIEW dashboard_run_quality AS
WITH judged AS (
    SELECT run_id,
           count(*) AS statements,
           count(*) FILTER (WHERE verdict = 'SUPPORTED') AS supported,
           count(*) FILTER (WHERE verdict = 'PARTIAL') AS partial,
           count(*) FILTER (WHERE verdict = 'UNSUPPORTED') AS unsupported,
           count(*) FILTER (WHERE verdict = 'CONTRADICTED') AS contradicted
    FROM statements GROUP BY run_id
), verified AS (
    SELECT run_id, count(*) AS verified_pairs
    FROM (SELECT DISTINCT run_id, question_id, requirement_id FROM verifications WHERE verified)
    GROUP BY run_id
), cited AS (
    SELECT run_id, count(*) AS cited_pairs
    FROM (SELECT DISTINCT run_id, question_id, requirement_id FROM citations)
    GROUP BY run_id
), composed AS (
    SELECT DISTINCT run_id FROM answers
)
SELECT r.run_id, r.started_at, r.status,
       coalesce(j.statements, 0) AS statements,
       coalesce(j.supported, 0) AS supported,
       coalesce(j.partial, 0) AS partial,
       coalesce(j.unsupported, 0) AS unsupported,
       coalesce(j.contradicted, 0) AS contradicted,
       round((j.unsupported + j.contradicted) / nullif(j.statements, 0), 4) AS unsupported_rate,
       coalesce(v.verified_pairs, 0) AS verified_pairs,
       coalesce(c.cited_pairs, 0) AS cited_pairs,
       round(c.cited_pairs / nullif(v.verified_pairs, 0), 4) AS citation_coverage
FROM runs r
JOIN composed USING (run_id)
LEFT JOIN judged j USING (run_id)
LEFT JOIN verified v USING (run_id)
LEFT JOIN cited c USING (run_id)
WHERE r.collected_at IS NULL
ORDER BY r.started_at;
