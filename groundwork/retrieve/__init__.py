"""Retrieval: a run's questions and chunks in, the ranked chunks of each question out.

Backends, chosen by the run config's `retrieve`: BM25 over chunks and their sections (bm25.py,
the default), and the models trained here (trained.py): BM25's and the dense encoder's
candidates, fused, reranked by the relevance model, returned as the top k distinct units
(passages) with their neighbouring chunks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pyarrow as pa

    from groundwork.models.scores import Embedder, Scorer
    from schemas.config import RunConfig


class Retriever(Protocol):
    """Ranks the chunks it was built over for each question (`retrievals` rows,
    schemas/retrievals.RETRIEVALS_SCHEMA)."""

    @property
    def idf(self) -> dict[str, float]:
        """Term -> idf over the chunks, which the lexical verifier weighs question terms with."""
        ...

    def retrievals(self, questions: pa.Table, top_k: int) -> pa.Table: ...


def retriever(
    chunks: pa.Table,
    config: RunConfig,
    scorer: Scorer | None = None,
    embedder: Embedder | None = None,
) -> Retriever:
    """The configured retrieval backend over a run's chunks (columns of
    sql/answers/index_chunks.sql); `scorer` is the relevance model the trained backend reranks
    with, `embedder` the dense encoder whose candidates it fuses with BM25's."""
    from groundwork.retrieve.bm25 import RETRIEVER, Bm25Retriever

    if config.retrieve == "bm25":
        return Bm25Retriever(chunks)
    from groundwork.retrieve.trained import RerankedRetriever

    if scorer is None:
        raise ValueError("the trained retriever needs the relevance model")
    dense = f"+{embedder.version}" if embedder is not None else ""
    label = f"{RETRIEVER}{dense}+top{config.retrieve_candidates}-reranked:{scorer.version}"
    return RerankedRetriever(chunks, scorer, config.retrieve_candidates, label, embedder)
