-- The rows of some documents ($documents: a list of doc_ids) of a relation with `doc_id`.
-- Parameters: $rows, $documents.
(SELECT * FROM $rows WHERE doc_id IN $documents)
