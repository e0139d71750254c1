-- The run's answers ($answers, a relation), in question order, as exported.
-- Parameters: $answers.
SELECT question_id, result, final_answer, grounding_confidence, verified_count, statute_summary,
       policy_summary, missing_evidence, unused_requirement_ids, composer
FROM $answers
ORDER BY question_id
