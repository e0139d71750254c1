-- Whether any active document mentions a name a question gives: its citation matches
-- $in_citation or its text $in_text (RE2 patterns groundwork/verify/absent.py builds: an
-- acronym written as it is, or in its text spelled out too; a cited provision).
-- Parameters: $in_citation, $in_text.
SELECT EXISTS (
    SELECT 1
    FROM documents
    WHERE status = 'active'
      AND (regexp_matches(coalesce(citation, ''), $in_citation)
           OR regexp_matches(text, $in_text))
)
