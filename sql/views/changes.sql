-- The change report between two runs, as table macros over the all-runs views:
--   SELECT * FROM requirement_changes('r2026...A', 'r2026...B');
--   SELECT * FROM answer_changes('r2026...A', 'r2026...B');
-- and as views comparing the two latest published runs (what a team reads each morning), named
-- by their IDs ($before, $after: NULL while there are fewer), as the current_* views name the
-- published run: with the IDs written into the view, DuckDB reads the parts of those two runs
-- only, where IDs found by a subquery made it read every run's. The views are made again
-- whenever the published runs change (groundwork/warehouse/views.py). Until there are two they
-- are empty, as `groundwork diff` asks for two and a run's report has no changes.md before its
-- second publication: compared with nothing, every requirement of the first would be `added`,
-- a copy of the whole register in every dashboard's snapshot.
-- A requirement whose text changed gets a new ID (IDs are keyed by the quote), so `changed`
-- pairs a retired and an added requirement at the same place: same document and label path,
-- n-th at that place in both runs. Only documents with both an added and a retired requirement
-- can hold a pair, so only theirs are numbered by place (whole documents, so the numbers are
-- the same): on a first publication nothing is retired, and numbering every added
-- requirement of the bench corpus was most of this view's time.
-- Parameters: $before, $after.

CREATE OR REPLACE MACRO requirement_changes(run_a, run_b) AS TABLE
WITH a AS (SELECT * FROM requirements WHERE run_id = run_a),
     b AS (SELECT * FROM requirements WHERE run_id = run_b),
     added AS (SELECT * FROM b WHERE requirement_id NOT IN (SELECT requirement_id FROM a)),
     gone AS (SELECT * FROM a WHERE requirement_id NOT IN (SELECT requirement_id FROM b)),
     added_placed AS (
         SELECT *, row_number() OVER (PARTITION BY doc_id, coalesce(label_path, '')
                                      ORDER BY char_start) AS place
         FROM added WHERE doc_id IN (SELECT doc_id FROM gone)),
     gone_placed AS (
         SELECT *, row_number() OVER (PARTITION BY doc_id, coalesce(label_path, '')
                                      ORDER BY char_start) AS place
         FROM gone WHERE doc_id IN (SELECT doc_id FROM added)),
     paired AS (
         SELECT g.requirement_id AS old_id, n.requirement_id AS new_id, n.doc_id, n.label_path,
                g.exact_quote AS old_quote, n.exact_quote AS new_quote
         FROM added_placed n
         JOIN gone_placed g ON g.doc_id = n.doc_id AND g.place = n.place
                           AND coalesce(g.label_path, '') = coalesce(n.label_path, ''))
SELECT 'changed' AS change, old_id, new_id, doc_id, label_path, old_quote, new_quote
FROM paired
UNION ALL
SELECT 'added', NULL, requirement_id, doc_id, label_path, NULL, exact_quote
FROM added WHERE requirement_id NOT IN (SELECT new_id FROM paired)
UNION ALL
SELECT 'retired', requirement_id, NULL, doc_id, label_path, exact_quote, NULL
FROM gone WHERE requirement_id NOT IN (SELECT old_id FROM paired);

CREATE OR REPLACE MACRO answer_changes(run_a, run_b) AS TABLE
WITH cited AS (
         SELECT run_id, question_id, list(DISTINCT requirement_id ORDER BY requirement_id) AS ids
         FROM citations WHERE run_id IN (run_a, run_b) GROUP BY ALL),
     a AS (SELECT x.question_id, x.result, x.grounding_confidence, coalesce(c.ids, []) AS ids
           FROM answers x LEFT JOIN cited c ON c.run_id = x.run_id AND c.question_id = x.question_id
           WHERE x.run_id = run_a),
     b AS (SELECT x.question_id, x.result, x.grounding_confidence, coalesce(c.ids, []) AS ids
           FROM answers x LEFT JOIN cited c ON c.run_id = x.run_id AND c.question_id = x.question_id
           WHERE x.run_id = run_b)
SELECT coalesce(b.question_id, a.question_id) AS question_id,
       CASE WHEN a.question_id IS NULL THEN 'new question'
            WHEN b.question_id IS NULL THEN 'question dropped'
            ELSE 'changed' END AS change,
       a.result AS old_result, b.result AS new_result,
       a.grounding_confidence AS old_confidence, b.grounding_confidence AS new_confidence,
       list_filter(coalesce(b.ids, []), lambda i: NOT list_contains(coalesce(a.ids, []), i))
           AS now_cited,
       list_filter(coalesce(a.ids, []), lambda i: NOT list_contains(coalesce(b.ids, []), i))
           AS no_longer_cited
FROM a FULL JOIN b ON a.question_id = b.question_id
WHERE a.question_id IS NULL OR b.question_id IS NULL OR a.result <> b.result
   OR a.grounding_confidence <> b.grounding_confidence OR a.ids <> b.ids;

CREATE OR REPLACE VIEW published_runs_latest AS
SELECT run_id, row_number() OVER (ORDER BY started_at DESC) AS recency
FROM runs WHERE status = 'published' AND collected_at IS NULL;

CREATE OR REPLACE VIEW latest_requirement_changes AS
SELECT * FROM requirement_changes($before, $after) WHERE $before IS NOT NULL;

CREATE OR REPLACE VIEW latest_answer_changes AS
SELECT * FROM answer_changes($before, $after) WHERE $before IS NOT NULL;
