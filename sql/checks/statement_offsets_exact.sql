-- check: statement_offsets_exact
-- table: statements
-- severity: hard
-- metric: statements whose text is not final_answer[char_start:char_end]
SELECT s.question_id, s.statement_id, s.char_start, s.char_end
FROM run_statements s
LEFT JOIN run_answers a USING (question_id)
WHERE a.question_id IS NULL
   OR substring(a.final_answer, s.char_start + 1, s.char_end - s.char_start) IS DISTINCT FROM s.text
