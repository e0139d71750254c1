-- The requirements a set of citations points to, with what a footnote shows.
SELECT DISTINCT c.requirement_id, r.label_path, r.exact_quote, d.citation, d.title, d.url,
       d.source_type
FROM read_parquet({citations}, hive_partitioning = false) c
JOIN read_parquet({requirements}, hive_partitioning = false) r USING (requirement_id)
JOIN documents d USING (doc_id)
ORDER BY c.requirement_id
