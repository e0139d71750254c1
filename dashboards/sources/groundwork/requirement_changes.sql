-- What changed since the previous publication: added, changed and retired requirements. The
-- published run is joined in so that the table has a row (change NULL) when nothing changed:
-- Evidence cannot load an empty source.
SELECT c.change, coalesce(c.new_id, c.old_id) AS requirement_id, c.doc_id, c.label_path,
       coalesce(c.new_quote, c.old_quote) AS quote, c.old_quote
FROM published_run p LEFT JOIN latest_requirement_changes c ON true
