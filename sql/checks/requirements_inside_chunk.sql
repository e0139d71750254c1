-- check: requirements_inside_chunk
-- table: requirements
-- severity: hard
-- metric: requirements whose offsets fall outside the chunk they name
--   (rows this run computed: see sql/review/run_views.sql)
SELECT r.requirement_id, r.chunk_id, r.char_start, r.char_end, c.char_start AS chunk_start,
       c.char_end AS chunk_end
FROM fresh_requirements r
LEFT JOIN run_chunks c USING (chunk_id)
WHERE c.chunk_id IS NULL OR r.char_start < c.char_start OR r.char_end > c.char_end
