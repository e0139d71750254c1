-- Per question, the closest candidates the gate rejected, best first, at most 3: ranked by the
-- gate model's score where it scored them, else by the share of the question's weighted
-- words the quote covers (ties: requirement ID). A quote that is not verbatim in its source is
-- left out: it was never judged on what it says. With each, the requirement's quote and where
-- it is from, and the verdict's reason and figures, which the report and answers.md say in words.
-- Parameters: $verifications, $requirements.
WITH ranked AS (
    SELECT question_id, requirement_id, rejection_reason, rationale, score, threshold,
           quote_coverage, verifier,
           row_number() OVER (
               PARTITION BY question_id
               ORDER BY score DESC NULLS LAST, quote_coverage DESC, requirement_id
           ) AS rank
    FROM $verifications
    WHERE NOT verified AND rejection_reason <> 'not_verbatim'
)
SELECT k.question_id, k.rank, k.requirement_id, r.exact_quote, r.label_path, d.doc_id,
       d.citation, d.title, k.rejection_reason, k.rationale, k.score, k.threshold,
       k.quote_coverage, k.verifier
FROM ranked k
JOIN $requirements r USING (requirement_id)
JOIN documents d ON d.doc_id = r.doc_id
WHERE k.rank <= 3
ORDER BY k.question_id, k.rank
