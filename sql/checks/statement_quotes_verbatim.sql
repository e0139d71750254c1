-- check: statement_quotes_verbatim
-- table: statements
-- severity: hard
-- metric: quoting statements whose quote is not the cited requirement's verbatim text (a statement
--   must carry no fact that is not in its cited quote)
SELECT s.question_id, s.statement_id, c.requirement_id
FROM run_statements s
JOIN run_citations c USING (statement_id)
LEFT JOIN run_requirements r USING (requirement_id)
WHERE s.form = 'quote'
  AND (r.requirement_id IS NULL OR position(r.exact_quote IN s.text) = 0)
