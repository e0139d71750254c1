-- Two files (or records) with one doc_id: keep the one at the path the warehouse already knows for
-- that doc_id (so a stray copy never displaces a known document), else the first path in order;
-- reject the others, naming the file that kept the ID.
CREATE OR REPLACE TEMP TABLE duplicate_documents AS
WITH ranked AS (
    SELECT i.rowid AS row_key, i.doc_id, i.path,
           row_number() OVER w AS rank,
           first(i.path) OVER w AS kept_path
    FROM incoming_documents i
    LEFT JOIN documents d USING (doc_id)
    WINDOW w AS (PARTITION BY i.doc_id
                 ORDER BY (i.path = d.path) DESC NULLS LAST, i.path, i.rowid
                 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
)
SELECT row_key, doc_id, path, kept_path FROM ranked WHERE rank > 1;

INSERT INTO rejected_documents
SELECT $run_id, path, NULL, doc_id, 'duplicate_doc_id',
       printf('doc_id ''%s'' is already used by %s', doc_id, kept_path)
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
