"""The hybrid and trained backends of retrieval: candidates from BM25 and the dense encoder,
fused, returned as the top k distinct units; the trained backend reranks them first with the
relevance model.

A unit is a section: the run of chunks of one document under one heading (the whole document
when it has none), so a passage split into several chunks counts once, and `top_k` means k
distinct passages. For each question BM25 (bm25.py) and the dense encoder (models/dense/: the
chunks whose vectors lie nearest the question's) each rank the chunks; their reciprocal rank
fusion gives `candidates` chunks. BM25 misses a question asked in words no statute uses ("our
laptop with patient records was stolen"); the encoder, trained on such questions, finds it, and
BM25 keeps the exact terms the encoder blurs ("164.410").

The encoder reads every chunk of a corpus of up to `dense_chunks` chunks (about 85 chunks a
second on two cores, each read once: its vector is cached in the warehouse by content hash, so
a rerun encodes only changed text). Above that it reads only BM25's first `DENSE_READS`
candidates of each of the run's questions and reorders them, so a corpus of millions of chunks
costs what its questions ask.

With the relevance model (models/relevance/: the trained backend) the fused candidates are
read beside the question and reranked; a unit scores as its best chunk. The top k units are
returned with their chunks, best first, and with the unit's other chunks nearest the best one
(its neighbours, up to `NEIGHBOURS` in all), so the sibling paragraph that holds the rule beside
the one that matched reaches the gate too.
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
DENSE_READS = 30  # BM25's candidates the encoder reorders per question, above `dense_chunks`
# Reciprocal rank fusion: a chunk scores 1 / (RRF_K + rank) in each ranking. The usual 60 flattens
# the head of the rankings; a smaller constant lets either ranking's first few chunks lead, and
# found the expected document more often on plain dev's tuning half (BENCHMARKS.md, "Retrieval").
RRF_K = 10


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


class HybridRetriever:
    """BM25's and the encoder's candidates, fused (and reranked by a relevance scorer when there
    is one), as a `Retriever`."""

    def __init__(
        self,
        chunks: pa.Table,
        embed: Embeds | None,
        candidates: int,
        label: str,
        score: Scores | None = None,
        dense_chunks: int = 20_000,
    ) -> None:
        rows = chunks.select(["chunk_id", "doc_id", "heading", "text", "title", "citation"])
        self.rows = rows  # read as Python rows only where a model reads them
        self.index: ChunkIndex = chunk_index(chunks)
        self.score = score
        self.embed = embed
        self.candidates = candidates
        self.label = label
        self.dense_chunks = dense_chunks
        self._masks: dict[tuple, np.ndarray] = {}  # (source types, jurisdiction) -> allowed
        self.members: dict[int, list[int]] = {}  # unit -> its chunk positions, in order
        for pos, unit in enumerate(self.index.section_of.tolist()):
            self.members.setdefault(unit, []).append(pos)

    @property
    def idf(self) -> dict[str, float]:
        return self.index.idf

    def _texts(self, positions: Sequence[int]) -> list[str]:
        """The chunks at `positions` as the models read them: context, then text."""
        taken = self.rows.take(pa.array(positions, type=pa.int64())).to_pylist()
        return [relevance_text(header(row), row["text"]) for row in taken]

    def retrievals(self, questions: pa.Table, top_k: int) -> pa.Table:
        """The top-k units of every question, their chunks ranked."""
        asked = questions.to_pylist()
        masks = [self._mask(q) for q in asked]
        lexical = [
            list(dict(question_hits(self.index, q, self.candidates, mask)))
            for q, mask in zip(asked, masks, strict=True)
        ]
        dense = self._dense_rankings(asked, masks, lexical)
        hits: list[dict[int, float]] = [  # per question: candidate position -> fused score
            fused(first, second, self.candidates)
            for first, second in zip(lexical, dense, strict=True)
        ]
        if self.score is not None:
            positions = [p for found in hits for p in found]
            asking = [q["question"] for q, found in zip(asked, hits, strict=True) for _ in found]
            pairs = list(zip(asking, self._texts(positions), strict=True))
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

    def _mask(self, question: dict) -> np.ndarray:
        """The chunks the question's source-type and jurisdiction filters allow."""
        key = (tuple(sorted(question["source_types"] or [])), question["jurisdiction"] or None)
        if key not in self._masks:
            self._masks[key] = filter_mask(self.index, list(key[0]), key[1])
        return self._masks[key]

    def _dense_rankings(
        self, asked: list[dict], masks: list[np.ndarray], lexical: list[list[int]]
    ) -> list[list[int]]:
        """The encoder's ranking of each question's chunks: all of them in a corpus of up to
        `dense_chunks` chunks, else BM25's first `DENSE_READS` candidates (`lexical`)
        reordered; none without an encoder (BM25's candidates alone are then reranked)."""
        whole = self.rows.num_rows <= self.dense_chunks
        reads = [found[:DENSE_READS] for found in lexical]
        pool = (
            np.arange(self.rows.num_rows)
            if whole
            else np.array(sorted({pos for found in reads for pos in found}), dtype=np.int64)
        )
        if self.embed is None or not asked or not len(pool):
            return [[] for _ in asked]
        chunks = self.embed(self._texts(pool.tolist()))
        queries = self.embed([q["question"] for q in asked])
        rankings = []
        for i, mask in enumerate(masks):
            allowed = mask[pool] if whole else mask[pool] & np.isin(pool, reads[i])
            best = nearest(chunks @ queries[i], allowed, self.candidates)
            rankings.append([int(pool[p]) for p in best])
        return rankings

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
