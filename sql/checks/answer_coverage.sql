-- check: answer_coverage
-- table: answers
-- severity: soft
-- threshold: 0.50
-- denominator: SELECT count(*) FROM run_answers
-- metric: share of questions answered NO_AUTHORITATIVE_EVIDENCE
SELECT question_id, question
FROM run_answers
WHERE result = 'NO_AUTHORITATIVE_EVIDENCE'
