-- How many documents the update replaces, and how many the snapshot's run has.
SELECT (SELECT count(*) FROM changed_documents),
       (SELECT count(*) FROM document_rows WHERE status = 'active')
