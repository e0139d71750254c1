-- Whether any active document mentions an acronym, written as it is or spelled out (its
-- initials, groundwork/verify/absent.py builds both RE2 patterns), in its citation or its text.
-- Parameters: $written, $spelled.
SELECT EXISTS (
    SELECT 1
    FROM documents
    WHERE status = 'active'
      AND (regexp_matches(coalesce(citation, ''), $written)
           OR regexp_matches(text, $written) OR regexp_matches(text, $spelled))
)
