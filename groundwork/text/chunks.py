"""Section-aware chunks with exact offsets into the document text.

A chunk starts at a Markdown heading, at a top-level subsection label, or when the size cap would
be passed; it never ends inside a paragraph unless that paragraph alone is over the cap, and then
it ends at a sentence boundary. The chunk's text is `documents.text[char_start:char_end]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pyarrow as pa

from groundwork.ingest.parsers import content_sha256
from groundwork.text.sections import Paragraph, label_path, labelled_paragraphs, section_number
from groundwork.text.sentences import sentence_spans
from schemas.chunks import ARROW_SCHEMA as CHUNKS_SCHEMA
from schemas.chunks import Chunks
from schemas.contract import checked


@dataclass(frozen=True, slots=True)
class _Piece:
    start: int
    end: int
    labels: tuple[str, ...]
    heading: str | None
    starts_section: bool


def _pieces(text: str, max_chars: int) -> Iterator[_Piece]:
    """Paragraphs (split at sentences when one is over the cap) with their structure."""
    previous_heading = False
    for para, labels, heading in labelled_paragraphs(text):
        top_level = len(labels) > 0 and len(labels) == len(para.labels) and not previous_heading
        starts = bool(para.heading_level and not previous_heading) or top_level
        previous_heading = bool(para.heading_level)
        for i, (s, e) in enumerate(_paragraph_parts(text, para, max_chars)):
            yield _Piece(s, e, labels, heading, starts and i == 0)


def _paragraph_parts(text: str, para: Paragraph, max_chars: int) -> list[tuple[int, int]]:
    if para.end - para.start <= max_chars:
        return [(para.start, para.end)]
    parts: list[tuple[int, int]] = []
    for s, e in sentence_spans(text, para.start, para.end):
        if parts and e - parts[-1][0] <= max_chars:
            parts[-1] = (parts[-1][0], e)
        else:
            parts.append((s, e))
    return parts


def document_chunks(doc_id: str, citation: str | None, text: str, max_chars: int) -> list[dict]:
    """The chunks of one document, in order."""
    section = section_number(citation, text)
    groups: list[list[_Piece]] = []
    for piece in _pieces(text, max_chars):
        current = groups[-1] if groups else None
        fits = current is not None and piece.end - current[0].start <= max_chars
        if current is None or piece.starts_section or not fits:
            groups.append([piece])
        else:
            current.append(piece)
    rows = []
    for ordinal, group in enumerate(groups):
        start, end = group[0].start, group[-1].end
        first_body = next((p for p in group if p.labels), group[0])
        chunk_text = text[start:end]
        rows.append(
            {
                "chunk_id": f"{doc_id}#{ordinal:04d}",
                "doc_id": doc_id,
                "ordinal": ordinal,
                "section": section,
                "label_path": label_path(section, first_body.labels) or None,
                "heading": group[0].heading,
                "char_start": start,
                "char_end": end,
                "text": chunk_text,
                "sha256": content_sha256(chunk_text),
                "n_words": len(chunk_text.split()),
            }
        )
    return rows


def chunks(documents: pa.Table, max_chars: int) -> pa.Table:
    """Chunks of every document in a batch (columns doc_id, citation, text)."""
    rows: list[dict] = []
    for doc in documents.select(["doc_id", "citation", "text"]).to_pylist():
        rows.extend(document_chunks(doc["doc_id"], doc["citation"], doc["text"], max_chars))
    return pa.Table.from_pylist(rows, schema=CHUNKS_SCHEMA)


def checked_chunks(batch: tuple[pa.RecordBatch, int]) -> pa.Table:
    """Worker entry point: the chunks of a document batch, checked against their contract."""
    documents, max_chars = batch
    return checked(chunks(pa.Table.from_batches([documents]), max_chars), Chunks, "chunks")
