-- Two files (or records) with one doc_id. The one at the path where an earlier run registered
-- that doc_id keeps it and the others are rejected, naming it: a new file never displaces a
-- registered document. When none of them holds it, every claimant is rejected, naming the others:
-- which file is the real one is for a person to say, never for file-name order.
-- Parameters: $run_id.
CREATE OR REPLACE TEMP TABLE duplicate_documents AS
WITH claimants AS (
    SELECT i.rowid AS row_key, i.doc_id, i.path, coalesce(i.path = d.path, false) AS holds
    FROM incoming_documents i
    LEFT JOIN documents d USING (doc_id)
), claims AS (
    SELECT doc_id, count(*) AS n,
           max(CASE WHEN holds THEN path END) AS holder,
           string_agg(path, ', ' ORDER BY path) AS paths
    FROM claimants GROUP BY doc_id HAVING count(*) > 1
)
SELECT c.row_key, c.doc_id, c.path,
       CASE WHEN k.holder IS NOT NULL
            THEN printf('doc_id ''%s'' is already used by %s', c.doc_id, k.holder)
            ELSE printf('doc_id ''%s'' is claimed by %d files (%s), none of which an earlier run '
                        'registered under it: give each its own doc_id', c.doc_id, k.n, k.paths)
       END AS detail
FROM claimants c
JOIN claims k USING (doc_id)
WHERE NOT c.holds;

INSERT INTO rejected_documents
SELECT $run_id, path, NULL, doc_id, 'duplicate_doc_id', detail
FROM duplicate_documents;

DELETE FROM incoming_documents WHERE rowid IN (SELECT row_key FROM duplicate_documents);

-- A new file that reuses the doc_id of a known document whose file was skipped as unchanged:
-- the known document keeps its ID, the newcomer is rejected.
CREATE OR REPLACE TEMP TABLE shadowing_documents AS
SELECT i.rowid AS row_key, i.doc_id, i.path, d.path AS kept_path
FROM incoming_documents i
JOIN documents d USING (doc_id)
WHERE d.status = 'active' AND d.path <> i.path
  AND d.path IN (SELECT path FROM unchanged_files);

INSERT INTO rejected_documents
SELECT $run_id, path, NULL, doc_id, 'duplicate_doc_id',
       printf('doc_id ''%s'' is already used by %s', doc_id, kept_path)
FROM shadowing_documents;

DELETE FROM incoming_documents WHERE rowid IN (SELECT row_key FROM shadowing_documents);
