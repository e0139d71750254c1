-- Give every requirement candidate of the run's registered sources its stable ID.
-- Canonical key = sha256(source, normalised quote, occurrence of that quote in the source), so the
-- same requirement keeps its ID across runs, a new one is numbered after the last of its prefix,
-- and one that is gone is retired. IDs are never deleted, so never reused. New IDs follow the
-- candidates' order in their documents, every tie broken (two candidates may open at one offset,
-- and one quote may be two candidates: a duty read alone and a permission under its lead-in), so
-- that two runs of one corpus number them alike, and give each its own key alike.
-- Parameters: $candidates, $run_id.

CREATE OR REPLACE TEMP TABLE run_candidates AS
SELECT c.*,
       d.source_id,
       CASE WHEN d.source_type = 'policy' THEN 'P' ELSE 'S' END AS prefix,
       sha256(d.source_id || chr(31) || c.normalised_quote || chr(31) ||
              row_number() OVER (PARTITION BY d.source_id, c.normalised_quote
                                 ORDER BY c.doc_id, c.char_start, c.char_end,
                                          c.lead_in_start NULLS FIRST, c.modality, c.trigger)::VARCHAR)
           AS canonical_key
FROM $candidates c
JOIN documents d USING (doc_id)
WHERE d.source_id IN (SELECT source_id FROM registered_sources)
  -- the extractor's decision; candidates of runs before the column existed were all registered
  AND coalesce(c.is_requirement, true);

INSERT INTO requirement_registry
SELECT printf('REQ-%s%04d', prefix, seq), prefix, seq, canonical_key, source_id,
       normalised_quote, 'active', $run_id, $run_id, NULL
FROM (
    SELECT c.prefix, c.canonical_key, c.source_id, c.normalised_quote,
           coalesce(m.max_seq, 0)
             + row_number() OVER (PARTITION BY c.prefix
                                  ORDER BY c.doc_id, c.char_start, c.char_end,
                                           c.lead_in_start NULLS FIRST, c.modality, c.trigger,
                                           c.canonical_key)
             AS seq
    FROM run_candidates c
    LEFT JOIN (SELECT prefix, max(seq) AS max_seq FROM requirement_registry GROUP BY prefix) m
           USING (prefix)
    WHERE c.canonical_key NOT IN (SELECT canonical_key FROM requirement_registry)
);

-- Only rows that change: the IDs just issued already read so, and on a cold run of the bench corpus
-- rewriting all those rows again made the commit noticeably slower.
UPDATE requirement_registry
SET status = 'active', last_run = $run_id, retired_run = NULL
WHERE (status <> 'active' OR last_run <> $run_id OR retired_run IS NOT NULL)
  AND canonical_key IN (SELECT canonical_key FROM run_candidates);

-- A requirement of a source this run registered that the run did not find is retired. Those of
-- the other sources are taken from the reused run as they are (their last_run stays the run
-- that last registered them: stamping all of them each night made the commit noticeably slower).
UPDATE requirement_registry
SET status = 'retired', retired_run = $run_id
WHERE status = 'active' AND last_run <> $run_id
  AND source_id IN (SELECT source_id FROM registered_sources);
