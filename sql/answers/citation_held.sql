-- Whether any active document is or mentions a provision a question cites, in its citation or
-- its text ($pattern: an RE2 pattern of the provision, groundwork/verify/citations.py builds it).
-- Parameters: $pattern.
SELECT EXISTS (
    SELECT 1
    FROM documents
    WHERE status = 'active'
      AND (regexp_matches(coalesce(citation, ''), $pattern) OR regexp_matches(text, $pattern))
)
