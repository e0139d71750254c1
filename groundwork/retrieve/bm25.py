"""The BM25 backend of retrieval: chunks ranked per question, with source-type and jurisdiction
filters.

A chunk's score adds up four BM25 scores (bm25s, k1 1.2, b 0.75), one per index:

* the chunk's own terms, with a contextual header (document title, citation, section heading),
  so a paragraph that says only "the notification shall include" is still found for "breach
  notice contents";
* the terms of the chunk's **section** (the run of chunks of one document under one heading; the
  whole document when it has no headings), so a list item "(c) the identity of any client" is
  scored together with the lead-in sentence it completes. Chunk and section weigh half each;
* ordered pairs of adjacent terms ("exit facil", "facil offer") in the chunk and in its section,
  at 0.3 of the single-term weight: a phrase that matches word for word ranks above the same
  words scattered.

Measured on the ObliQA development split (benchmarks/retrieval.py --ablation; BENCHMARKS.md,
"Retrieval"): each part helps on its own; pseudo-relevance feedback (RM3), unordered term pairs,
a query stop list and other k1/b did not, so they are not here. rank-bm25 is the oracle in the
tests.

The idf is Lucene's, log(1 + (N - df + 0.5) / (df + 0.5)), always positive, not Robertson's
log((N - df + 0.5) / (df + 0.5)), which is zero (bm25s floors it there) for a term in half the
entries or more: in a corpus of one document, or two or three, nothing would score above zero and
no question would get a candidate. On a corpus of thousands of chunks the two differ little for
the rare terms that rank (ObliQA dev: BENCHMARKS.md, "Retrieval").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from itertools import pairwise
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from groundwork.models.relevance import header
from groundwork.text.terms import terms
from schemas.retrievals import RETRIEVALS_SCHEMA

if TYPE_CHECKING:
    import bm25s

RETRIEVER = "bm25s-lucene-k1.2-b0.75-chunk+section-pairs0.3"
K1, B = 1.2, 0.75
SECTION_WEIGHT = 0.5  # the chunk's own score weighs 1 - SECTION_WEIGHT
PAIR_WEIGHT = 0.3  # adjacent term pairs, relative to single terms


class Field:
    """One BM25 index (bm25s, Lucene's idf: the module docstring) over token lists; scores
    every entry for a query."""

    def __init__(self, corpus: list[list[str]]) -> None:
        self.size = len(corpus)
        self.bm25: bm25s.BM25 | None = None
        if any(corpus):
            self.bm25 = _bm25s().BM25(method="lucene", k1=K1, b=B)
            self.bm25.index(corpus, show_progress=False)

    def scores(self, query: list[str]) -> np.ndarray:
        """BM25 score of every entry (repeated query terms count again, as in rank-bm25)."""
        known = [t for t in query if self.bm25 is not None and t in self.bm25.vocab_dict]
        if not known:
            return np.zeros(self.size, dtype=np.float32)
        return self.bm25.get_scores(known)


def _bm25s() -> ModuleType:
    """bm25s, imported on first use: it and scipy are slow to import, which a run without questions
    never needs. It sets its logger to DEBUG on import and logs every index build: warnings only."""
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)
    return bm25s


@dataclass
class ChunkIndex:
    """A BM25 index over chunks and their sections, with the metadata that filters apply to."""

    chunk_ids: list[str]
    doc_ids: list[str]
    source_types: np.ndarray
    jurisdictions: np.ndarray
    idf: dict[str, float]
    section_of: np.ndarray  # chunk position -> section position
    chunk_terms: Field
    chunk_pairs: Field
    section_terms: Field
    section_pairs: Field


def pairs(tokens: list[str]) -> list[str]:
    """Ordered pairs of adjacent index terms, as single tokens ("exit facil")."""
    return [f"{a} {b}" for a, b in pairwise(tokens)]


def indexed_text(row: dict) -> str:
    """What a chunk is indexed as: its context (title, citation, heading) and its text."""
    return f"{header(row)}\n{row['text']}"


def sections(rows: list[dict]) -> tuple[np.ndarray, list[list[str]]]:
    """Section position of each chunk and the terms of each section. A section is a run of
    consecutive chunks (rows come ordered by doc_id, ordinal) of one document under one heading;
    its terms are its header once, then its chunks' text."""
    section_of = np.zeros(len(rows), dtype=np.int64)
    section_terms: list[list[str]] = []
    previous = None
    for pos, row in enumerate(rows):
        key = (row["doc_id"], row["heading"])
        if key != previous:
            section_terms.append(terms(header(row)))
            previous = key
        section_of[pos] = len(section_terms) - 1
        section_terms[-1].extend(terms(row["text"]))
    return section_of, section_terms


def document_idf(corpus: list[list[str]]) -> dict[str, float]:
    """Term -> idf over chunks, log(1 + (n - df + 0.5) / (df + 0.5)); always positive."""
    n = len(corpus)
    document_frequency: dict[str, int] = {}
    for tokens in corpus:
        for term in set(tokens):
            document_frequency[term] = document_frequency.get(term, 0) + 1
    return {
        t: float(np.log(1 + (n - df + 0.5) / (df + 0.5))) for t, df in document_frequency.items()
    }


def chunk_index(chunks: pa.Table) -> ChunkIndex:
    """The index of a run's chunks (columns of sql/answers/index_chunks.sql, in its order)."""
    rows = chunks.to_pylist()
    corpus = [terms(indexed_text(r)) for r in rows]
    section_of, section_corpus = sections(rows)
    return ChunkIndex(
        chunk_ids=[r["chunk_id"] for r in rows],
        doc_ids=[r["doc_id"] for r in rows],
        source_types=np.array([r["source_type"] for r in rows], dtype=object),
        jurisdictions=np.array([r["jurisdiction"] or "" for r in rows], dtype=object),
        idf=document_idf(corpus),
        section_of=section_of,
        chunk_terms=Field(corpus),
        chunk_pairs=Field([pairs(t) for t in corpus]),
        section_terms=Field(section_corpus),
        section_pairs=Field([pairs(t) for t in section_corpus]),
    )


def filter_mask(index: ChunkIndex, source_types: list[str], jurisdiction: str | None) -> np.ndarray:
    """True for chunks a question may use, False for the rest (a jurisdiction matches by prefix)."""
    mask = np.ones(len(index.chunk_ids), dtype=bool)
    if source_types:
        mask &= np.isin(index.source_types, source_types)
    if jurisdiction:
        mask &= np.array([j.startswith(jurisdiction) for j in index.jurisdictions], dtype=bool)
    return mask


def chunk_scores(index: ChunkIndex, query: list[str]) -> np.ndarray:
    """The combined score of every chunk for a query's terms."""
    query_pairs = pairs(query)
    own = index.chunk_terms.scores(query) + PAIR_WEIGHT * index.chunk_pairs.scores(query_pairs)
    section = index.section_terms.scores(query) + PAIR_WEIGHT * index.section_pairs.scores(
        query_pairs
    )
    combined = (1 - SECTION_WEIGHT) * own + SECTION_WEIGHT * section[index.section_of]
    return combined.astype(np.float64)


def question_hits(
    index: ChunkIndex, question: dict, top_k: int, mask: np.ndarray | None = None
) -> list[tuple[int, float]]:
    """(chunk position, score) of the best chunks for one question, best first, score > 0.
    Equal scores keep the index order, so a run is reproducible. `mask` is the question's
    filter_mask when the caller has it already."""
    query = terms(question["question"])
    if not query or not index.chunk_ids or top_k < 1:
        return []
    if mask is None:
        mask = filter_mask(index, question["source_types"] or [], question["jurisdiction"])
    scores = chunk_scores(index, query)
    scores[~mask] = 0.0
    candidates = np.flatnonzero(scores > 0)
    if len(candidates) > top_k:
        cut = np.argpartition(-scores[candidates], top_k - 1)[:top_k]
        threshold = scores[candidates[cut]].min()
        candidates = candidates[scores[candidates] >= threshold]  # keep ties at the cut
    best = candidates[np.lexsort((candidates, -scores[candidates]))][:top_k]
    return [(int(i), float(scores[i])) for i in best]


def retrievals(questions: pa.Table, index: ChunkIndex, top_k: int) -> pa.Table:
    """The top-k chunks of every question, ranked."""
    rows = []
    masks: dict[tuple, np.ndarray] = {}  # questions share a few filter combinations
    for question in questions.to_pylist():
        key = (tuple(sorted(question["source_types"] or [])), question["jurisdiction"] or None)
        if key not in masks:
            masks[key] = filter_mask(index, list(key[0]), key[1])
        hits = question_hits(index, question, top_k, masks[key])
        for rank, (pos, score) in enumerate(hits, start=1):
            rows.append(
                {
                    "question_id": question["question_id"],
                    "chunk_id": index.chunk_ids[pos],
                    "doc_id": index.doc_ids[pos],
                    "rank": rank,
                    "score": score,
                    "retriever": RETRIEVER,
                }
            )
    return pa.Table.from_pylist(rows, schema=RETRIEVALS_SCHEMA)


class Bm25Retriever:
    """BM25 over a run's chunks as a `Retriever`."""

    def __init__(self, chunks: pa.Table) -> None:
        self.index = chunk_index(chunks)

    @property
    def idf(self) -> dict[str, float]:
        """Term -> idf over the chunks: what the lexical verifier weighs question terms with."""
        return self.index.idf

    def retrievals(self, questions: pa.Table, top_k: int) -> pa.Table:
        """The top-k chunks of every question, ranked."""
        return retrievals(questions, self.index, top_k)
