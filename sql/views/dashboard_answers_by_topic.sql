-- Dashboard: the published answers by question topic, result and grounding confidence.
-- A question without a topic is counted under NULL.
CREATE OR REPLACE VIEW dashboard_answers_by_topic AS
SELECT q.topic, a.result, a.grounding_confidence,
       count(*) AS answers,
       sum(a.verified_count) AS verified_requirements,
       round(avg(a.verified_count), 2) AS mean_verified_per_answer,
       a.run_id
FROM current_answers a
JOIN current_questions q USING (question_id)
GROUP BY ALL
ORDER BY q.topic NULLS LAST, a.result, a.grounding_confidence;
