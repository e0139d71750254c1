-- One row: the run this snapshot holds, when it was published, and the row count of each of its
-- tables, so a reader can check that what it reads is one whole run.
-- Parameters: $run_id.
CREATE TABLE published.published_run AS
SELECT r.run_id, p.published_at, r.corpus, r.input_fingerprint, r.config_hash, r.code_version,
       (SELECT count(*) FROM published.current_documents) AS documents,
       (SELECT count(*) FROM published.current_requirements) AS requirements,
       (SELECT count(*) FROM published.current_questions) AS questions,
       (SELECT count(*) FROM published.current_answers) AS answers,
       (SELECT count(*) FROM published.current_statements) AS statements,
       (SELECT count(*) FROM published.current_citations) AS citations
FROM runs r
JOIN (SELECT run_id, max(published_at) AS published_at FROM publications GROUP BY run_id) p
  USING (run_id)
WHERE r.run_id = $run_id
