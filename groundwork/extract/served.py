"""The served-model backend of extraction: candidates proposed by a model, kept only if they pass
the rules' validators.

The model sees one chunk at a time and proposes quotes. A quote is kept only if it is a verbatim
substring of its chunk: offsets come from our own search, never from the model. A quote outside
the 3-40 word budget or proposed twice is dropped too; every drop is a row in model_rejections.
A chunk the model failed on is extracted by the rules when the backend's fallback says so.
"""

from __future__ import annotations

import re
from typing import ClassVar

import pyarrow as pa

from groundwork.extract.deontic import trigger_phrase
from groundwork.extract.nonrequirements import set_aside
from groundwork.extract.rules import (
    CHUNK_COLUMNS,
    Chunk,
    document_candidates,
    normalised_quote,
    quote_context,
)
from groundwork.llm.calls import ModelStage, Request
from groundwork.llm.client import json_parser
from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse
from schemas.model_replies import ExtractionReply, ExtractionRequest
from schemas.requirements import CANDIDATES_SCHEMA

MIN_MODEL_WORDS = 3
_WORD = re.compile(r"\S+")


def extraction_request(stage: ModelStage, chunk: Chunk, citation: str) -> Request:
    """The request for one chunk: its text as data, and where it comes from."""
    return Request(
        item=chunk.chunk_id,
        messages=stage.prompt.messages(ExtractionRequest(passage=chunk.text, citation=citation)),
        parse=json_parser(ExtractionReply),
        schema=ExtractionReply.model_json_schema(),
    )


def validated_candidates(stage: ModelStage, chunk: Chunk, reply: ExtractionReply) -> list[dict]:
    """The proposed quotes that are verbatim in the chunk and of 3 words or more; a long one is
    kept whole and flagged (`long_quote`), as the rules keep a long clause, and one that is no
    requirement on its own (a lead-in, a citation note) set aside, as the rules set it aside."""
    rows, taken = [], set()
    for proposed in reply.requirements:
        quote = proposed.quote.strip()
        first = start = chunk.text.find(quote) if quote else -1
        while start in taken:
            start = chunk.text.find(quote, start + 1)
        words = len(_WORD.findall(quote))
        reason = (
            "not_verbatim"
            if first < 0
            else "duplicate"
            if start < 0
            else "quote_too_short"
            if words < MIN_MODEL_WORDS
            else None
        )
        if reason:
            stage.reject(chunk.chunk_id, reason, quote[:300])
            continue
        taken.add(start)
        subject = proposed.subject if proposed.subject and proposed.subject in quote else None
        rows.append(
            {
                "doc_id": chunk.doc_id,
                "chunk_id": chunk.chunk_id,
                "label_path": chunk.label_path,
                "char_start": chunk.char_start + start,
                "char_end": chunk.char_start + start + len(quote),
                "exact_quote": quote,
                "normalised_quote": normalised_quote(quote),
                "modality": proposed.modality,
                "trigger": trigger_phrase(quote) or quote.split()[0],
                "subject": subject,
                "lead_in_quote": None,
                "lead_in_start": None,
                "lead_in_end": None,
                "extraction_confidence": "medium",
                "extractor": stage.label,
                "extractor_version": stage.prompt.version_tag,
                "is_requirement": True,
                **quote_context(chunk.text, chunk.char_start, start, start + len(quote)),
            }
        )
    return set_aside(rows)


class ServedExtractor:
    """A served model as an `Extractor`: it runs in the flow's process, where its stage (cache,
    usage, rejections) is open; its requests go out concurrently from there."""

    in_processes: ClassVar[bool] = False

    def __init__(self, stage: ModelStage, citations: dict[str, str | None]) -> None:
        self.stage = stage
        self.citations = citations  # doc_id -> citation, named in each request

    def candidates(self, chunks: pa.Table) -> pa.Table:
        """Candidates of chunks that hold whole documents, in order, from the model; a chunk
        it failed on is extracted by the rules when the backend's fallback says so."""
        batch = [Chunk.of(r) for r in chunks.select(CHUNK_COLUMNS).to_pylist()]
        requests = [
            extraction_request(self.stage, c, self.citations.get(c.doc_id) or c.doc_id)
            for c in batch
        ]
        replies = self.stage.answers(requests)
        rows: list[dict] = []
        for chunk in batch:
            reply = replies.get(chunk.chunk_id)
            if reply is not None:
                rows.extend(validated_candidates(self.stage, chunk, reply))
            elif self.stage.backend.fallback == "rules":
                rows.extend(
                    {**row, "extractor": f"{row['extractor']} (model fallback)"}
                    for row in document_candidates([chunk])
                )
        return pa.Table.from_pylist(rows, schema=CANDIDATES_SCHEMA)


def document_citations(warehouse: Warehouse) -> dict[str, str | None]:
    """Every document's citation, which the model is told beside each chunk."""
    with warehouse.connect(read_only=True) as con:
        return dict(query(con, "extract/document_citations").fetchall())
