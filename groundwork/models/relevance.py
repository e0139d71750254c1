"""Does a passage or requirement answer a question? The relevance model trained here
(training/relevance.py, models/relevance/) reads a question beside one text with its context
(title, citation, heading), exactly as built here, in training and at run time alike; the dense
encoder (training/dense.py, models/dense/) reads the same text alone to propose candidates."""

from __future__ import annotations

from groundwork.models.inference import model_version

MODEL = "relevance"
DENSE = "dense"


def relevance_version() -> str:
    """The relevance model's version."""
    return model_version(MODEL)


def header(row: dict) -> str:
    """A chunk's context: title, citation, heading. A title that is only the doc_id (the ingest
    falls back to it when a document has no title) says nothing and is left out. BM25 indexes it
    with the chunk, and the relevance model reads it on the text's first line."""
    title = row["title"] if row["title"] != row["doc_id"] else None
    return " ".join(v for v in (title, row["citation"], row["heading"]) if v)


def relevance_text(context: str | None, text: str) -> str:
    """The second segment the model reads: the text's context on the first line, then the
    text."""
    return f"{context}\n{text}" if context else text
