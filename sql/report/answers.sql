-- The answers of one run, in question order, with what the report filters them by: the
-- question's topic, jurisdiction and source types as asked.
-- Parameters: $answers, $questions.
SELECT a.question_id, a.question, a.result, a.final_answer, a.grounding_confidence,
       a.verified_count, a.missing_evidence, a.composer,
       coalesce(a.unused_requirement_ids, []) AS unused_requirement_ids,
       q.topic, q.jurisdiction, coalesce(q.source_types, []) AS source_types
FROM $answers a
LEFT JOIN $questions q USING (question_id)
ORDER BY a.question_id
