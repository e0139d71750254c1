-- check: citations_verified
-- table: citations
-- severity: hard
-- metric: citations of a requirement that was not verified for that question
SELECT c.question_id, c.statement_id, c.requirement_id
FROM run_citations c
LEFT JOIN run_verifications v
       ON v.question_id = c.question_id AND v.requirement_id = c.requirement_id AND v.verified
WHERE v.requirement_id IS NULL
