-- check: quotes_whole
-- table: requirements
-- severity: hard
-- metric: requirement quotes that end or start inside a phrase (groundwork/extract/phrases.py
--   defines it; tests/test_phrases.py holds this query to that definition): a quote ends inside
--   one when the text up to its end does not end with . ; : ! ? or a dash (closing brackets
--   and quotation marks aside: a quote of only `”` after a period ends whole) and its line
--   goes on (after blanks: white space other than a line break) with anything but those; it
--   starts inside one when its line,
--   before it, ends with anything but those (closing brackets and quotation marks after them
--   aside), a closing bracket or a list or emphasis mark
--   (rows this run computed: see sql/review/run_views.sql)
SELECT r.requirement_id, r.doc_id, r.char_start, r.char_end, r.exact_quote
FROM fresh_requirements r
JOIN documents d USING (doc_id)
WHERE (NOT regexp_matches(
           rtrim(substring(d.text, greatest(r.char_end - 80, 0) + 1,
                           r.char_end - greatest(r.char_end - 80, 0)), ')]}"”’'''),
           '[.;:!?—–]$')
       AND regexp_matches(substring(d.text, r.char_end + 1, 80), '^[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*[^\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}\n.;:!?—–]'))
   OR (regexp_matches(
           substring(d.text, greatest(r.char_start - 80, 0) + 1,
                     r.char_start - greatest(r.char_start - 80, 0)),
           '[^\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}\n.;:!?—–)\]*#>|+-][\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*$')
       AND NOT regexp_matches(
           substring(d.text, greatest(r.char_start - 80, 0) + 1,
                     r.char_start - greatest(r.char_start - 80, 0)),
           '[.;:!?—–][)\]}"”’'']+[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*$'))
