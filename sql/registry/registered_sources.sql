-- The sources whose requirements this run registers itself. Without a reused run: all of them.
-- With one ($reused): the sources of the documents this run extracted ($fresh_candidates) and
-- of documents changed or removed since it; every other source's requirements are copied from
-- the reused run with their IDs, since their text, citation and source are as they were.
-- Parameters: $reused, $fresh_candidates.
CREATE OR REPLACE TEMP TABLE registered_sources AS
SELECT source_id FROM sources
WHERE CAST($reused AS VARCHAR) IS NULL
UNION
SELECT d.source_id
FROM documents d
WHERE CAST($reused AS VARCHAR) IS NOT NULL
  AND (NOT (d.status = 'active' AND d.changed_run <= $reused)
       OR d.doc_id IN (SELECT doc_id FROM $fresh_candidates));
