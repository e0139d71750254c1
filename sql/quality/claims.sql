-- The run's claims, with whether an unsupported or contradicted one was published as fact (the
-- claims_supported gate: it must be softened or removed).
-- Parameters: $claims.
SELECT claim_id, statement_id, question_id, verdict, action, support,
       (verdict = 'UNSUPPORTED' AND action = 'kept')
         OR (verdict = 'CONTRADICTED' AND action <> 'removed') AS published_as_fact_unsupported
FROM $claims
ORDER BY claim_id
