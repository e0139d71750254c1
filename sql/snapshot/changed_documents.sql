-- The documents whose rows the snapshot attached as `previous` holds other than the run published
-- now: those whose requirements come from other Parquet parts ($before: each document's run in
-- the lineage of the snapshot's run; $after: in that of the run published now), so that were
-- registered afresh, added or removed; and those whose row of current_documents ($documents)
-- differs in anything but last_run, which every run sets on every document (so also those added,
-- removed, or described anew without a change of text). A document whose requirements come from
-- the same run's parts has the same requirement rows (the parts never change once committed).
-- Parameters: $before, $after, $documents.
CREATE OR REPLACE TEMP TABLE changed_documents AS
SELECT doc_id
FROM $before b
FULL JOIN $after a USING (doc_id)
WHERE b.from_run IS DISTINCT FROM a.from_run
UNION
SELECT doc_id
FROM (SELECT doc_id, d AS row FROM (SELECT * EXCLUDE (last_run) FROM $documents) d) n
FULL JOIN (SELECT doc_id, d AS row
           FROM (SELECT * EXCLUDE (last_run) FROM previous.current_documents) d) o
  USING (doc_id)
WHERE n.row IS DISTINCT FROM o.row
