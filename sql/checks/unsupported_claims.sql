-- check: unsupported_claims
-- table: claims
-- severity: hard
-- threshold: claims.max_unsupported_rate
-- denominator: SELECT count(*) FROM run_claims
-- metric: share of claims unsupported or contradicted after citation correction (the run config
--   sets the threshold, 20 % by default; softened or removed, they are still counted)
SELECT question_id, claim_id, verdict, reason
FROM run_claims
WHERE verdict IN ('UNSUPPORTED', 'CONTRADICTED')
