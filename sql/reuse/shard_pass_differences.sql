-- Where ingest's shard pass and the chunk stage disagree: the documents the stage must chunk
-- ($fresh: reuse/fresh_documents or ingest/active_documents) that the pass did not, or with
-- another citation or text (`missing`); the doc_ids of those the pass chunked that the stage
-- would not (`extra`: a duplicate doc_id rejected at merge, a text unchanged since the reused
-- run); and how many of those share a doc_id with a document the stage must chunk (`clashing`:
-- their rows cannot be told apart). No missing and no clashing: the pass's chunks, less the
-- extra documents', are the stage's own.
-- Parameters: $fresh, $passed.
WITH fresh AS (
    SELECT doc_id, citation, sha256
    FROM documents
    WHERE doc_id IN (SELECT doc_id FROM $fresh)
), passed AS (
    SELECT doc_id, citation, sha256 FROM $passed
), extra AS (
    FROM passed EXCEPT ALL FROM fresh
)
SELECT (SELECT count(*) FROM (FROM fresh EXCEPT ALL FROM passed)) AS missing,
       (SELECT coalesce(list(DISTINCT doc_id ORDER BY doc_id), []) FROM extra) AS extra,
       (SELECT count(*) FROM extra WHERE doc_id IN (SELECT doc_id FROM fresh)) AS clashing
