-- How many documents ingest's shard pass and the chunk stage disagree on: those the stage must
-- chunk ($fresh: reuse/fresh_documents or ingest/active_documents) that the pass did not, or with
-- another citation or text, and those the pass chunked that the stage would not (a duplicate
-- doc_id rejected at merge, a text unchanged since the reused run). None: the pass's chunks are
-- the stage's own.
-- Parameters: $fresh, $passed.
WITH fresh AS (
    SELECT doc_id, citation, sha256
    FROM documents
    WHERE doc_id IN (SELECT doc_id FROM $fresh)
), passed AS (
    SELECT doc_id, citation, sha256 FROM $passed
)
SELECT count(*) AS differing
FROM ((FROM fresh EXCEPT ALL FROM passed) UNION ALL (FROM passed EXCEPT ALL FROM fresh))
