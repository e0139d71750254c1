-- The answers of one run, in question order: what each section of the report shows.
SELECT question_id, question, result, final_answer, grounding_confidence, verified_count,
       missing_evidence, composer
FROM {answers}
ORDER BY question_id
