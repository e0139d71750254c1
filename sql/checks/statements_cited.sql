-- check: statements_cited
-- table: statements
-- severity: hard
-- metric: statements without a citation
SELECT s.question_id, s.statement_id, s.text
FROM run_statements s
WHERE s.statement_id NOT IN (SELECT statement_id FROM run_citations)
