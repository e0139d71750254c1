-- check: lead_ins_verbatim
-- table: requirements
-- severity: hard
-- metric: enumerated items whose lead_in_quote is not the document text at its offsets
--   (rows this run computed: see sql/review/run_views.sql)
SELECT r.requirement_id, r.doc_id, r.lead_in_start, r.lead_in_end, r.lead_in_quote
FROM fresh_requirements r
JOIN documents d USING (doc_id)
WHERE r.lead_in_quote IS NOT NULL
  AND substring(d.text, r.lead_in_start + 1, r.lead_in_end - r.lead_in_start)
      IS DISTINCT FROM r.lead_in_quote
