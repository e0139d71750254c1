-- One row per published answer, with its question's topic.
SELECT a.question_id, q.topic, a.question, a.result, a.grounding_confidence,
       a.verified_count::BIGINT AS verified_count, a.claims::BIGINT AS claims,
       a.unsupported_claims::BIGINT AS unsupported_claims, a.unsupported_claim_rate
FROM current_answers a LEFT JOIN current_questions q USING (question_id)
