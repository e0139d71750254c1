"""The cache of trained models' outputs (groundwork/models/scores.py) on a real DuckDB file: each distinct
input computed once per model version, read back by a later scorer. Stand-in models count their
calls; the real ones are tested in test_relevance.py."""

from __future__ import annotations

import duckdb
import numpy as np
import pytest

from groundwork.models.scores import Embedder, Scorer
from groundwork.warehouse.sqlfiles import run_script


class Counting:
    """A model that records what it was asked: scores by length, vectors by first letter."""

    def __init__(self, version: str) -> None:
        self.version = version
        self.asked: list = []

    def scores(self, pairs: list) -> np.ndarray:
        self.asked += pairs
        return np.array([len(q + t) / 100 for q, t in pairs])

    def embeddings(self, texts: list) -> np.ndarray:
        self.asked += texts
        return np.array([[1.0, 0.0] if t[0] < "n" else [0.0, 1.0] for t in texts], dtype=np.float32)


@pytest.fixture
def con(tmp_path):
    connection = duckdb.connect(str(tmp_path / "cache.duckdb"))
    run_script(connection, "migrations/002_model_scores")  # the model caches' tables
    yield connection
    connection.close()


def test_scores_are_computed_once_per_distinct_pair_and_read_back(con):
    model = Counting("m-1")
    pairs = [("q", "a text"), ("q", "another"), ("q", "a text")]
    first = Scorer(model, con)(pairs)
    assert model.asked == pairs[:2]
    assert first == pytest.approx([0.07, 0.08, 0.07])
    again = Scorer(model, con)
    assert again(pairs) == pytest.approx(first)
    assert (again.scored, again.cached) == (0, 3)
    assert model.asked == pairs[:2]


def test_a_new_model_version_is_not_served_the_old_scores(con):
    Scorer(Counting("m-1"), con)([("q", "t")])
    newer = Counting("m-2")
    Scorer(newer, con)([("q", "t")])
    assert newer.asked == [("q", "t")]


def test_vectors_round_trip_through_the_cache(con):
    model = Counting("e-1")
    texts = ["apple", "zebra", "apple"]
    first = Embedder(model, con)(texts)
    assert first.dtype == np.float32 and first.shape == (3, 2)
    again = Embedder(model, con)
    np.testing.assert_array_equal(again(texts), first)
    assert again.cached == 3 and model.asked == ["apple", "zebra"]
