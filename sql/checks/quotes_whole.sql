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
--   aside), a list or emphasis mark, or list labels ("(a)(1)", "2)") that open the line or
--   follow one of those marks (or an editorial "NB ..." note)
--   (rows this run computed: see sql/review/run_views.sql)
WITH windows AS (
    -- one substring of the document per requirement, from 80 characters before the quote to 80
    -- after it, cut into the three pieces below: DuckDB walks a text from its start to reach an
    -- offset, so four substrings of a long document cost four walks (seconds on the bench corpus)
    SELECT r.requirement_id, r.doc_id, r.char_start, r.char_end, r.exact_quote,
           greatest(r.char_start - 80, 0) AS lo,
           substring(d.text, greatest(r.char_start - 80, 0) + 1,
                     r.char_end + 80 - greatest(r.char_start - 80, 0)) AS around
    FROM fresh_requirements r
    JOIN documents d USING (doc_id)
), pieces AS (
    SELECT requirement_id, doc_id, char_start, char_end, exact_quote,
           -- up to 80 characters before the quote's end, the 80 after it, the 80 before its start
           substring(around, greatest(char_end - 80, 0) - lo + 1,
                     char_end - greatest(char_end - 80, 0)) AS before_end,
           substring(around, char_end - lo + 1, 80) AS after_end,
           substring(around, 1, char_start - lo) AS before_start
    FROM windows
)
SELECT requirement_id, doc_id, char_start, char_end, exact_quote
FROM pieces
WHERE (NOT regexp_matches(rtrim(before_end, ')]}"”’'''), '[.;:!?—–]$')
       AND regexp_matches(after_end, '^[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*[^\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}\n.;:!?—–]'))
   OR (regexp_matches(
           before_start,
           '[^\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}\n.;:!?—–*#>|+-][\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*$')
       AND NOT regexp_matches(
           before_start,
           '[.;:!?—–][)\]}"”’'']+[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*$')
       AND NOT regexp_matches(
           before_start,
           '(?:^|[\n.;:!?—–*#>|+-][)\]}"”’'']*)[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*(?:NB[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]+[^()\n]*)?(?:\(?[0-9A-Za-z]{1,6}\)[\p{Zs}\t\v\f\r\x{1c}-\x{1f}\x{85}\x{2028}\x{2029}]*)+$'))
