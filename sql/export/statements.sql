-- `verdict` is read through the row as JSON: runs composed before statements had verdicts have
-- no such column, and get NULL.
-- Parameters: $statements.
SELECT s.statement_id, s.question_id, s.ordinal, s.text, s.char_start, s.char_end, s.section,
       s.claim_type, s.form, s.support, to_json(s) ->> 'verdict' AS verdict
FROM $statements s
ORDER BY s.question_id, s.ordinal
