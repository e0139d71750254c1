"""The shard pass: a batch of corpus files parsed, and, when the extraction backend runs in worker
processes, chunked and extracted in the same worker call, each table checked against its
contract where it is made. Nothing reads the text again between the three: the chunk and extract
stages adopt what the pass made (groundwork/warehouse/shard_parts.py) when it is exactly what
they would make themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyarrow as pa

from groundwork.extract.parts import checked_extraction
from groundwork.ingest.documents import ParseItem, parsed_documents
from groundwork.text.chunks import checked_chunks
from schemas.config import RunConfig

if TYPE_CHECKING:
    from groundwork.extract import Extractor


@dataclass(frozen=True)
class Shard:
    """What one batch of files made: its documents and rejections, and, when the pass chunked and
    extracted them, the documents' chunks and their requirement candidates."""

    documents: pa.Table
    rejected: pa.Table
    chunks: pa.Table | None = None
    candidates: pa.Table | None = None


def shard_pass(unit: tuple[list[ParseItem], RunConfig, Extractor | None]) -> Shard:
    """Worker entry point: a batch of files parsed, then, with a backend, chunked and extracted,
    unless two of its documents share a doc_id (the merge rejects them; chunk IDs would clash)."""
    files, config, backend = unit
    documents, rejected = parsed_documents((files, config))
    ids = documents.column("doc_id")
    if backend is None or len(ids.unique()) < len(ids):
        return Shard(documents, rejected)
    made = checked_chunks((_one_batch(documents), config.chunk_max_chars))
    return Shard(documents, rejected, made, checked_extraction(backend, made))


def _one_batch(table: pa.Table) -> pa.RecordBatch:
    """A table as one record batch, as the chunker takes documents (an empty one too)."""
    columns = [column.combine_chunks() for column in table.columns]
    return pa.RecordBatch.from_arrays(columns, schema=table.schema)
