-- check: claims_supported
-- table: claims
-- severity: hard
-- metric: claims published as fact though unsupported or contradicted by their cited quotes
--   (they must be softened or removed), and published statements whose claims are missing
SELECT c.question_id, c.claim_id, c.verdict, c.action, c.text
FROM run_claims c
WHERE (c.verdict = 'UNSUPPORTED' AND c.action = 'kept')
   OR (c.verdict = 'CONTRADICTED' AND c.action <> 'removed')
UNION ALL
SELECT s.question_id, s.statement_id, NULL, NULL, s.text
FROM run_statements s
WHERE s.statement_id NOT IN (SELECT statement_id FROM run_claims)
