-- check: quote_length
-- table: requirements
-- severity: soft
-- threshold: 0.10
-- denominator: SELECT count(*) FROM run_requirements
-- metric: share of requirement quotes shorter than 10 words (the paragraph had no more to give)
SELECT requirement_id, exact_quote
FROM run_requirements
WHERE NOT regexp_matches(exact_quote, '^\s*(\S+\s+){9}\S')  -- fewer than 10 words
