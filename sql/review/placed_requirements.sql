-- The run's fresh requirements, each with the chunk it names (its offsets and text; NULL when the
-- chunk is not the run's or is another document's) and its document's length (counted at ingest;
-- NULL when the warehouse has no such document), so that the checks in sql/checks/ that read
-- the text at a requirement's offsets can read it from the chunk when the span lies inside it.
-- DuckDB walks a text from its start to reach a character offset, so a substring of a chunk (a
-- few hundred characters) costs far less than one of its document (up to millions):
-- requirements_verbatim and sentences_enclose_quotes take much less time with the chunk, on the
-- bench corpus and on ten times it. quotes_whole reads 80 characters either side, which leave the
-- chunk for many quotes, and lead-ins are often in an earlier chunk: there the chunk cost more
-- than it saved (quotes_whole took longer with it), and they read the document. The chunk's text
-- is its document's at its offsets: chunks_verbatim holds the run's own chunks to that, and a
-- chunk taken from an earlier run passed it there against the same text.
CREATE OR REPLACE TEMP VIEW placed_requirements AS
SELECT r.*, c.char_start AS chunk_start, c.char_end AS chunk_end, c.text AS chunk_text,
       d.n_chars
FROM fresh_requirements r
LEFT JOIN run_chunks c ON c.chunk_id = r.chunk_id AND c.doc_id = r.doc_id
LEFT JOIN document_rows d ON d.doc_id = r.doc_id;

-- Whether [lo, hi) lies inside the requirement's chunk (false when it names none): a check may read
-- the text of such a span from the chunk.
CREATE OR REPLACE TEMP MACRO in_chunk(chunk_start, chunk_end, lo, hi) AS
    coalesce(chunk_start <= lo AND hi <= chunk_end, false);
