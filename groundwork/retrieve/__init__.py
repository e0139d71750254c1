"""Retrieval: a run's questions and chunks in, the ranked chunks of each question out.

One backend today, BM25 over chunks and their sections (bm25.py); a reranker slots in beside
it as another `Retriever`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pyarrow as pa


class Retriever(Protocol):
    """Ranks the chunks it was built over for each question (`retrievals` rows,
    schemas/retrievals.RETRIEVALS_SCHEMA)."""

    @property
    def idf(self) -> dict[str, float]:
        """Term -> idf over the chunks, which the lexical verifier weighs question terms with."""
        ...

    def retrievals(self, questions: pa.Table, top_k: int) -> pa.Table: ...


def retriever(chunks: pa.Table) -> Retriever:
    """The retrieval backend over a run's chunks (columns of sql/answers/index_chunks.sql)."""
    from groundwork.retrieve.bm25 import Bm25Retriever

    return Bm25Retriever(chunks)
