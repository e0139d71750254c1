-- Every citation of one run, with the verifier's reason for accepting the pair it cites.
SELECT c.statement_id, c.question_id, c.requirement_id, c.marker, c.role,
       v.rationale, v.quote_coverage, v.verifier
FROM {citations} c
LEFT JOIN {verifications} v
  ON v.question_id = c.question_id AND v.requirement_id = c.requirement_id AND v.verified
ORDER BY c.question_id, c.statement_id, c.requirement_id
