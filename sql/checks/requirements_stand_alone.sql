-- check: requirements_stand_alone
-- table: requirements
-- severity: hard
-- metric: requirements that are no requirement on their own (groundwork/extract/nonrequirements.py
--   defines them; tests/quality/test_requirements_stand_alone.py holds this query to it): a
--   quote that is only a citation or amendment note ("[68 FR 8376, Feb. 20, 2003, as amended at
--   78 FR 5694, Jan. 25, 2013]"), a lead-in registered without its items (a quote that ends
--   with : -- — or – and opens no list of conditions such as "... unless:"), or a quote that the
--   run's list items carry as their lead-in (rows this run computed, each document's all: see
--   sql/review/run_views.sql)
WITH carried AS (
    SELECT DISTINCT doc_id, lead_in_start, lead_in_end
    FROM fresh_requirements
    WHERE lead_in_start IS NOT NULL
)
SELECT r.requirement_id, r.doc_id, r.char_start, r.char_end, r.exact_quote
FROM fresh_requirements r
LEFT JOIN carried l
       ON l.doc_id = r.doc_id AND l.lead_in_start = r.char_start AND l.lead_in_end = r.char_end
WHERE l.doc_id IS NOT NULL
   OR (regexp_full_match(
           r.exact_quote,
           '(?s)\s*(?:\[(?:[^\[\]]|\[[^\[\]]*\])*\]|\((?:[^()]|\([^()]*\))*\)'
           || '|(?:Source|Authority|History|Credits|Editorial Note)s?:.*|NB\s+[^()\n]*)[\s.;]*')
       AND regexp_matches(
           r.exact_quote,
           '\b\d+\s+FR\s+\d|\bPub\.\s*L\.|\b\d+\s+Stat\.|\bU\.\s?S\.\s?C\.|\bC\.?F\.?R\.?\b|\bas amended\b|\bredesignated\b|\bNB\s'))
   OR (regexp_matches(r.exact_quote, '(?::|--|—|–)\s*$')
       AND NOT regexp_matches(
           r.exact_quote,
           '(?i)\b(?:that|if|unless|where|when|whether|which|who|whom|because|provided)\W*$'))
