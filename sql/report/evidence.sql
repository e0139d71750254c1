-- Each requirement the run cites or lists as also verified, once: its quote inside its sentence
-- and the passage (chunk) it sits in, where that is in the document, and the document's source
-- fields for the evidence card and the appendix.
-- Parameters: $citations, $answers, $requirements, $chunks.
WITH cited AS (
    SELECT requirement_id FROM $citations
    UNION
    SELECT unnest(unused_requirement_ids) FROM $answers
)
SELECT r.requirement_id, r.exact_quote, r.lead_in_quote, r.label_path, r.modality, r.subject,
       r.char_start - ch.char_start AS quote_start, r.char_end - ch.char_start AS quote_end,
       r.sentence_start - ch.char_start AS sentence_start,
       r.sentence_end - ch.char_start AS sentence_end, r.long_quote,
       ch.text AS passage, ch.heading, ch.label_path AS chunk_label_path,
       d.doc_id, d.title, coalesce(nullif(d.citation, ''), nullif(d.title, ''), d.doc_id) AS citation,
       d.source_type, d.jurisdiction,
       CASE WHEN json_valid(d.metadata) THEN json_extract_string(d.metadata, '$.publisher') END
           AS publisher,
       d.url, d.effective_date, d.retrieved, d.hierarchy
FROM cited
JOIN $requirements r USING (requirement_id)
JOIN $chunks ch USING (chunk_id)
JOIN documents d ON d.doc_id = r.doc_id
ORDER BY r.requirement_id
