-- Dashboard: claim-level quality of every run that checked claims, oldest first.
--   unsupported_claim_rate = claims UNSUPPORTED or CONTRADICTED after citation correction /
--                            all claims (what the unsupported_claims gate holds to its threshold)
--   softened / removed     = claims published hedged, qualified or "(unverified)" / not published
--   replaced, alternates, removed_citations = citation corrections by action
CREATE OR REPLACE VIEW dashboard_claim_quality AS
WITH judged AS (
    SELECT run_id,
           count(*) AS claims,
           count(*) FILTER (WHERE verdict = 'SUPPORTED') AS supported,
           count(*) FILTER (WHERE verdict = 'PARTIAL') AS partial,
           count(*) FILTER (WHERE verdict IN ('UNSUPPORTED', 'CONTRADICTED')) AS unsupported,
           count(*) FILTER (WHERE action IN ('hedged', 'qualified', 'marked_unverified'))
             AS softened,
           count(*) FILTER (WHERE action = 'removed') AS removed
    FROM claims GROUP BY run_id
), corrected AS (
    SELECT run_id,
           count(*) FILTER (WHERE action = 'REPLACE') AS replaced,
           count(*) FILTER (WHERE action = 'ADD_ALTERNATE') AS alternates,
           count(*) FILTER (WHERE action = 'REMOVE') AS removed_citations
    FROM citation_corrections GROUP BY run_id
)
SELECT r.run_id, r.started_at, r.status, j.claims, j.supported, j.partial, j.unsupported,
       round(j.unsupported / nullif(j.claims, 0), 4) AS unsupported_claim_rate,
       j.softened, j.removed,
       coalesce(c.replaced, 0) AS replaced,
       coalesce(c.alternates, 0) AS alternates,
       coalesce(c.removed_citations, 0) AS removed_citations
FROM runs r
JOIN judged j USING (run_id)
LEFT JOIN corrected c USING (run_id)
WHERE r.collected_at IS NULL
ORDER BY r.started_at;
