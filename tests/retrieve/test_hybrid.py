"""The hybrid and trained retrieval backends' ranking, with an encoder and a scorer given in the
test: BM25 and the encoder propose, the scorer (when there is one) reorders, and `top_k` counts distinct units (a passage split into chunks counts once),
each brought with its neighbouring chunks."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from groundwork.retrieve import hybrid
from groundwork.retrieve.hybrid import NEIGHBOURS, HybridRetriever, fused, nearest
from schemas.contract import checked
from schemas.retrievals import Retrievals
from tests.support.retrieval import FILLER, questions


def chunks(rows: list[tuple[str, str, str]]) -> pa.Table:
    """(chunk_id, doc_id, text) rows, with the other columns of sql/answers/index_chunks.sql;
    FILLER documents keep BM25's idf realistic."""
    rows = rows + [(f"f{i}", f"filler{i}", t) for i, t in enumerate(FILLER)]
    return pa.Table.from_pylist(
        [
            {
                "chunk_id": c,
                "doc_id": d,
                "heading": None,
                "text": t,
                "title": d,
                "citation": None,
                "source_type": "regulation",
                "jurisdiction": None,
            }
            for c, d, t in rows
        ]
    )


def by_word(word: str):
    """A scorer that likes texts holding `word`: what a relevance model would know and BM25
    cannot see from the question."""

    def score(pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.array([0.9 if word in text else 0.1 for _, text in pairs])

    return score


CORPUS = [
    ("a0", "breach", "A covered entity shall notify individuals of a breach of unsecured data."),
    ("a1", "breach", "The notice shall be given within 60 calendar days after discovery."),
    ("a2", "breach", "The notice shall describe what happened, in plain language."),
    (
        "b0",
        "sanction",
        "A covered entity shall apply sanctions against workforce members who fail.",
    ),
    ("c0", "log", "A covered entity shall keep a log of every breach notice for six years."),
]


def test_the_scorer_reorders_what_bm25_proposed():
    asked = questions("what must a covered entity keep for six years after a breach notice")
    plain = HybridRetriever(chunks(CORPUS), None, 10, "t", by_word("zzz")).retrievals(asked, 1)
    liked = HybridRetriever(chunks(CORPUS), None, 10, "t", by_word("sanctions")).retrievals(
        asked, 1
    )
    assert plain.column("doc_id")[0].as_py() != "sanction"
    assert set(liked.column("doc_id").to_pylist()) == {"sanction"}


def test_top_k_counts_units_and_brings_their_neighbours():
    asked = questions("how must a covered entity notify individuals of a breach")
    found = HybridRetriever(chunks(CORPUS), None, 10, "t", by_word("notify")).retrievals(asked, 2)
    docs = found.column("doc_id").to_pylist()
    assert len(set(docs)) == 2
    assert docs[0] == "breach"
    # the unit's other chunks come along, even those BM25 did not propose
    assert {"a0", "a1", "a2"} <= set(found.column("chunk_id").to_pylist())
    assert found.column("rank").to_pylist() == list(range(1, len(docs) + 1))
    checked(found, Retrievals, "retrievals")


def test_neighbours_are_capped_nearest_first():
    long_unit = [
        (f"n{i}", "long", f"Paragraph {i}: the entity shall keep records.") for i in range(12)
    ]
    long_unit[7] = ("n7", "long", "Paragraph 7: the entity shall encrypt every laptop disk.")
    asked = questions("which entity shall encrypt laptop disk")
    found = HybridRetriever(chunks(long_unit), None, 3, "t", by_word("encrypt")).retrievals(
        asked, 1
    )
    ids = found.column("chunk_id").to_pylist()
    assert ids[0] == "n7"
    assert len(ids) == NEIGHBOURS
    assert set(ids) <= {f"n{i}" for i in range(4, 11)}  # the nearest to n7


def test_a_question_bm25_finds_nothing_for_has_no_rows():
    asked = questions("zebra quokka")
    found = HybridRetriever(chunks(CORPUS), None, 10, "t", by_word("x")).retrievals(asked, 5)
    assert found.num_rows == 0


def by_topic(word: str):
    """An encoder that puts texts holding `word`, and every question, on one axis: what a dense
    model finds when the question shares no term with its answer."""

    def embed(texts: Sequence[str]) -> np.ndarray:
        on_topic = [t.endswith("?") or word in t for t in texts]
        return np.array([[1.0, 0.0] if hit else [0.0, 1.0] for hit in on_topic], dtype=np.float32)

    return embed


def test_dense_candidates_reach_what_bm25_cannot():
    """BM25 proposes nothing for a question worded apart from its answer; the encoder's
    candidates are fused in, and the scorer ranks them."""
    asked = questions("zebra quokka?")
    alone = HybridRetriever(chunks(CORPUS), None, 10, "t", by_word("sanctions")).retrievals(
        asked, 1
    )
    both = HybridRetriever(
        chunks(CORPUS), by_topic("sanctions"), 10, "t", by_word("sanctions")
    ).retrievals(asked, 1)
    assert alone.num_rows == 0
    assert both.column("chunk_id").to_pylist()[0] == "b0"


def test_dense_candidates_respect_the_question_filters():
    asked = questions("zebra quokka?", source_types=["statute"])  # the corpus is all regulation
    both = HybridRetriever(
        chunks(CORPUS), by_topic("sanctions"), 10, "t", by_word("sanctions")
    ).retrievals(asked, 3)
    assert both.num_rows == 0


def test_reciprocal_rank_fusion_rewards_agreement():
    assert list(fused(["a", "b", "c"], ["c", "d", "a"], 3)) == ["a", "c", "b"]
    assert list(fused([], ["x", "y"], 5)) == ["x", "y"]


def test_nearest_is_best_first_within_the_mask():
    similarity = np.array([0.1, 0.9, 0.5, 0.9, 0.7])
    mask = np.array([True, True, True, False, True])
    assert nearest(similarity, mask, 2) == [1, 4]
    assert nearest(similarity, mask, 10) == [1, 4, 2, 0]


def test_hybrid_without_a_scorer_ranks_by_fusion():
    """The default backend: no relevance model, the encoder's candidates fused with BM25's."""
    asked = questions("zebra quokka?")
    found = HybridRetriever(chunks(CORPUS), by_topic("sanctions"), 10, "t").retrievals(asked, 1)
    assert found.column("chunk_id").to_pylist()[0] == "b0"


def counting(embed):
    """The encoder, recording every text it is asked to read."""
    read: list[str] = []

    def counted(texts: Sequence[str]) -> np.ndarray:
        read.extend(texts)
        return embed(texts)

    return counted, read


def test_above_dense_chunks_the_encoder_reads_only_bm25s_candidates():
    asked = questions("how long must a covered entity keep a log of breach notices?")
    whole, read_whole = counting(by_topic("log"))
    HybridRetriever(chunks(CORPUS), whole, 2, "t").retrievals(asked, 3)
    bounded, read_bounded = counting(by_topic("log"))
    found = HybridRetriever(chunks(CORPUS), bounded, 2, "t", dense_chunks=3).retrievals(asked, 3)
    corpus_texts = [t for t in read_whole if not t.endswith("?")]
    assert len(corpus_texts) == len(chunks(CORPUS))
    assert len([t for t in read_bounded if not t.endswith("?")]) == 2  # BM25's two candidates
    assert found.column("chunk_id").to_pylist()[0] == "c0"


def test_above_dense_chunks_a_question_bm25_misses_gets_nothing():
    asked = questions("zebra quokka?")
    found = HybridRetriever(chunks(CORPUS), by_topic("sanctions"), 10, "t", dense_chunks=0)
    assert found.retrievals(asked, 1).num_rows == 0


def test_above_dense_chunks_the_encoder_reads_at_most_dense_reads_of_bm25s_candidates(
    monkeypatch,
):
    """BM25 may hand over many candidates; above `dense_chunks` the encoder reads only the first
    DENSE_READS of each question's, so a large corpus costs what its questions ask."""
    monkeypatch.setattr(hybrid, "DENSE_READS", 1)
    asked = questions("how long must a covered entity keep a log of breach notices?")
    bounded, read = counting(by_topic("log"))
    HybridRetriever(chunks(CORPUS), bounded, 2, "t", dense_chunks=3).retrievals(asked, 3)
    assert len([t for t in read if not t.endswith("?")]) == 1
