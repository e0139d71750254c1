-- check: claims_supported
-- table: statements
-- severity: hard
-- metric: model-written claims whose terms are mostly not in their cited quotes (support under
--   0.6, CLAIM_SUPPORT in tasks/model_compose.py), or that cite a requirement with no quote
SELECT s.question_id, s.statement_id, s.support, s.text
FROM run_statements s
WHERE s.form = 'claim'
  AND (s.support < 0.6
       OR EXISTS (SELECT 1 FROM run_citations c LEFT JOIN run_requirements r USING (requirement_id)
                  WHERE c.statement_id = s.statement_id AND r.exact_quote IS NULL))
