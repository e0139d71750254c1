-- The run's statements, with how many citations each has and whether the text holds every cited
-- quote (what a `quote` statement must do).
-- Parameters: $statements, $citations, $requirements.
SELECT s.statement_id, s.question_id, s.form, s.support, s.verdict,
       count(c.requirement_id) AS citations,
       coalesce(bool_and(position(r.exact_quote IN s.text) > 0), false) AS quotes_cited
FROM $statements s
LEFT JOIN $citations c USING (statement_id)
LEFT JOIN $requirements r USING (requirement_id)
GROUP BY ALL
ORDER BY s.statement_id
