-- check: answer_markers_cited
-- table: answers
-- severity: hard
-- metric: [REQ-...] markers in a final answer with no citation row of that question, or IDs
--   that are not in the register
WITH markers AS (
    SELECT question_id, unnest(regexp_extract_all(final_answer, '\[(REQ-[A-Z]+[0-9]+)\]', 1)) AS id
    FROM run_answers
)
SELECT DISTINCT m.question_id, m.id
FROM markers m
LEFT JOIN run_citations c ON c.question_id = m.question_id AND c.requirement_id = m.id
WHERE c.requirement_id IS NULL
   OR m.id NOT IN (SELECT requirement_id FROM requirement_registry)
