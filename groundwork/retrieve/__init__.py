"""Retrieval: a run's questions and chunks in, the ranked chunks of each question out.

Backends, chosen by the run config's `retrieve`: BM25 over chunks and their sections (bm25.py);
hybrid, the default (hybrid.py): BM25's and the dense encoder's candidates fused, returned as the
top k distinct units (passages) with their neighbouring chunks; and trained: the same candidates
reranked by the relevance model first.
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
    with, `embedder` the dense encoder whose candidates the hybrid and trained backends fuse
    with BM25's."""
    from groundwork.retrieve.bm25 import RETRIEVER, Bm25Retriever

    if config.retrieve == "bm25":
        return Bm25Retriever(chunks)
    from groundwork.retrieve.hybrid import RRF_K, HybridRetriever

    if embedder is None:
        raise ValueError(f"the {config.retrieve} retriever needs the dense encoder")
    if config.retrieve == "trained" and scorer is None:
        raise ValueError("the trained retriever needs the relevance model")
    label = f"{RETRIEVER}+{embedder.version}-rrf{RRF_K}-top{config.retrieve_candidates}"
    if scorer is not None:
        label += f"-reranked:{scorer.version}"
    return HybridRetriever(
        chunks, embedder, config.retrieve_candidates, label, scorer, config.dense_chunks
    )
