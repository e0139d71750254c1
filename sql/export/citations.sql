-- A claim-source link's ID: the statement and the requirement it cites (cited once each).
-- Parameters: $citations.
SELECT statement_id || ':' || requirement_id AS citation_id, statement_id, question_id,
       requirement_id, marker, role
FROM $citations
ORDER BY question_id, statement_id, requirement_id
