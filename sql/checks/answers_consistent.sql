-- check: answers_consistent
-- table: answers
-- severity: hard
-- metric: ANSWERED answers without statements, or NO_AUTHORITATIVE_EVIDENCE answers with some,
--   or without saying what is missing
SELECT a.question_id, a.result, count(s.statement_id) AS statements
FROM run_answers a
LEFT JOIN run_statements s USING (question_id)
GROUP BY a.question_id, a.result, a.missing_evidence
HAVING (a.result = 'ANSWERED' AND count(s.statement_id) = 0)
    OR (a.result = 'NO_AUTHORITATIVE_EVIDENCE'
        AND (count(s.statement_id) > 0 OR a.missing_evidence IS NULL))
