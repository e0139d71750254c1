"""The trained backend of retrieval: candidates from BM25 and the dense encoder, fused, reranked
by the relevance model, and returned as the top k distinct units.

A unit is a section: the run of chunks of one document under one heading (the whole document
when it has none), so a passage split into several chunks counts once, and `top_k` means k
distinct passages. For each question BM25 (bm25.py) and the dense encoder (models/dense/: the
chunks whose vectors lie nearest the question's) each rank the chunks; their reciprocal rank
fusion gives `candidates` chunks (BM25's alone without an encoder); the relevance
model (models/relevance/) reads the question beside each chunk with its context; a unit scores
as its best chunk. The top k units are returned with their chunks, best first, and with the
unit's other chunks nearest the best one (its neighbours, up to `NEIGHBOURS` in all), so the
sibling paragraph that holds the rule beside the one that matched reaches the gate too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyarrow as pa

from groundwork.models.relevance import header, relevance_text
from groundwork.retrieve.bm25 import ChunkIndex, chunk_index, filter_mask, question_hits
from schemas.retrievals import RETRIEVALS_SCHEMA

Scores = Callable[[Sequence[tuple[str, str]]], np.ndarray]
Embeds = Callable[[Sequence[str]], np.ndarray]
NEIGHBOURS = 6  # chunks of one unit the gate sees at most (the matched ones first)
RRF_K = 60  # reciprocal rank fusion: a chunk scores 1 / (RRF_K + rank) in each ranking


def fused(first: Sequence, second: Sequence, depth: int) -> dict:
    """The top `depth` of two rankings by reciprocal rank fusion, item -> fused score, best
    first (ties: the smaller item)."""
    score: dict = {}
    for ranking in (first, second):
        for rank, item in enumerate(ranking, start=1):
            score[item] = score.get(item, 0.0) + 1.0 / (RRF_K + rank)
    best = sorted(score, key=lambda item: (-score[item], item))[:depth]
    return {item: score[item] for item in best}


def nearest(similarity: np.ndarray, mask: np.ndarray, depth: int) -> list[int]:
    """The `depth` positions of highest similarity among those `mask` allows, best first (ties:
    the earlier position)."""
    allowed = np.flatnonzero(mask)
    if len(allowed) > depth:
        allowed = allowed[np.argpartition(-similarity[allowed], depth - 1)[:depth]]
    return sorted(allowed.tolist(), key=lambda pos: (-similarity[pos], pos))


class RerankedRetriever:
    """BM25's (and the encoder's) candidates reranked by a relevance scorer, as a `Retriever`."""

    def __init__(
        self,
        chunks: pa.Table,
        score: Scores | None,
        candidates: int,
        label: str,
        embed: Embeds | None = None,
    ) -> None:
        rows = chunks.select(["chunk_id", "doc_id", "heading", "text", "title", "citation"])
        self.records = rows.to_pylist()
        self.index: ChunkIndex = chunk_index(chunks)
        self.score = score
        self.embed = embed
        self.candidates = candidates
        self.label = label
        self.members: dict[int, list[int]] = {}  # unit -> its chunk positions, in order
        for pos, unit in enumerate(self.index.section_of.tolist()):
            self.members.setdefault(unit, []).append(pos)

    @property
    def idf(self) -> dict[str, float]:
        return self.index.idf

    def _text(self, pos: int) -> str:
        row = self.records[pos]
        return relevance_text(header(row), row["text"])

    def retrievals(self, questions: pa.Table, top_k: int) -> pa.Table:
        """The top-k units of every question, their chunks ranked."""
        asked = questions.to_pylist()
        masks: dict[tuple, np.ndarray] = {}
        hits: list[dict[int, float]] = []  # per question: candidate position -> first-stage score
        vectors = self._vectors(asked) if self.embed is not None and asked else None
        for i, q in enumerate(asked):
            key = (tuple(sorted(q["source_types"] or [])), q["jurisdiction"] or None)
            if key not in masks:
                masks[key] = filter_mask(self.index, list(key[0]), key[1])
            found = dict(question_hits(self.index, q, self.candidates, masks[key]))
            if vectors is not None:
                chunks, questions_ = vectors
                dense = nearest(chunks @ questions_[i], masks[key], self.candidates)
                found = fused(list(found), dense, self.candidates)
            hits.append(found)
        if self.score is not None:
            pairs = [
                (q["question"], self._text(p))
                for q, found in zip(asked, hits, strict=True)
                for p in found
            ]
            flat = iter(self.score(pairs).tolist())
            hits = [{pos: next(flat) for pos in found} for found in hits]
        rows = []
        for q, scored in zip(asked, hits, strict=True):
            for rank, (pos, score) in enumerate(self._ranked(scored, top_k), start=1):
                rows.append(
                    {
                        "question_id": q["question_id"],
                        "chunk_id": self.index.chunk_ids[pos],
                        "doc_id": self.index.doc_ids[pos],
                        "rank": rank,
                        "score": score,
                        "retriever": self.label,
                    }
                )
        return pa.Table.from_pylist(rows, schema=RETRIEVALS_SCHEMA)

    def _vectors(self, asked: list[dict]) -> tuple[np.ndarray, np.ndarray]:
        """The encoder's vectors of every chunk (with its context) and of every question."""
        chunks = self.embed([self._text(pos) for pos in range(len(self.records))])
        return chunks, self.embed([q["question"] for q in asked])

    def _ranked(self, scored: dict[int, float], top_k: int) -> list[tuple[int, float]]:
        """(chunk position, score) of the top-k units' chunks: units by their best chunk; of
        each, its best chunk, then its other chunks nearest to that one (up to NEIGHBOURS in
        all). A chunk the model did not read takes its unit's score."""
        units: dict[int, list[int]] = {}
        for pos in sorted(scored, key=lambda p: (-scored[p], p)):
            units.setdefault(int(self.index.section_of[pos]), []).append(pos)
        ranked: list[tuple[int, float]] = []
        for unit, matched in list(units.items())[:top_k]:
            best = scored[matched[0]]
            chosen = sorted(self.members[unit], key=lambda p: (abs(p - matched[0]), p))
            ranked.extend((p, scored.get(p, best)) for p in chosen[:NEIGHBOURS])
        return ranked
