-- Answers counted by topic, result and grounding confidence.
SELECT topic, result, grounding_confidence, answers::BIGINT AS answers,
       verified_requirements::BIGINT AS verified_requirements, mean_verified_per_answer, run_id
FROM dashboard_answers_by_topic
