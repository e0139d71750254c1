-- Per question of the published run: what was retrieved, extracted, verified and rejected (with
-- reasons), the pass rate and the confidence. `groundwork run` also writes it as JSON.
CREATE OR REPLACE VIEW current_audit_trail AS
WITH retrieved AS (
    SELECT question_id, count(*) AS chunks_retrieved, list(chunk_id ORDER BY rank) AS chunk_ids
    FROM current_retrievals GROUP BY question_id
), judged AS (
    SELECT question_id,
           count(*) AS requirements_considered,
           count(*) FILTER (WHERE verified) AS requirements_verified,
           count(*) FILTER (WHERE NOT verified) AS requirements_rejected,
           list(requirement_id ORDER BY requirement_id) FILTER (WHERE verified) AS verified_ids
    FROM current_verifications GROUP BY question_id
), reasons AS (
    SELECT question_id, map(list(rejection_reason), list(n)) AS rejection_reasons
    FROM (SELECT question_id, rejection_reason, count(*) AS n
          FROM current_verifications WHERE NOT verified GROUP BY ALL)
    GROUP BY question_id
), cited AS (
    SELECT question_id, list(DISTINCT requirement_id ORDER BY requirement_id) AS cited_ids
    FROM current_citations GROUP BY question_id
)
SELECT a.question_id, a.question, a.result, a.grounding_confidence,
       coalesce(r.chunks_retrieved, 0) AS chunks_retrieved, r.chunk_ids,
       coalesce(j.requirements_considered, 0) AS requirements_considered,
       coalesce(j.requirements_verified, 0) AS requirements_verified,
       coalesce(j.requirements_rejected, 0) AS requirements_rejected,
       round(j.requirements_verified / nullif(j.requirements_considered, 0), 4) AS pass_rate,
       x.rejection_reasons, j.verified_ids, c.cited_ids, a.unused_requirement_ids,
       a.missing_evidence, a.run_id
FROM current_answers a
LEFT JOIN retrieved r USING (question_id)
LEFT JOIN judged j USING (question_id)
LEFT JOIN reasons x USING (question_id)
LEFT JOIN cited c USING (question_id)
ORDER BY a.question_id;
