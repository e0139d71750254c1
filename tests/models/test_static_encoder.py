"""The static encoder's run-time reader on a tiny model the test builds: a text's vector is the
normalised mean of its known tokens' rows (scaled int8), as model2vec computes it; and the
committed models/static/ loads, matches its card and puts an answer nearer its question."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace

from groundwork.models.inference import MODELS_DIR, StaticEncoder

VOCAB = {"[UNK]": 0, "breach": 1, "notify": 2, "days": 3}
ROWS = np.array([[9, 9, 9], [127, 0, 0], [0, 127, -64], [0, 0, 100]], dtype=np.int8)
SCALES = np.array([1.0, 0.01, 0.02, 0.5], dtype=np.float32)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    tokenizer = Tokenizer(WordLevel(VOCAB, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    np.save(tmp_path / "vectors.npy", ROWS)
    np.save(tmp_path / "scales.npy", SCALES)
    meta = {"name": "static", "version": "static-test", "labels": [], "max_length": 3}
    (tmp_path / "model.json").write_text(json.dumps({**meta, "threshold": None}))
    return tmp_path


def expected(ids: list[int]) -> np.ndarray:
    mean = (ROWS[ids] * SCALES[ids, None]).mean(axis=0)
    return mean / np.linalg.norm(mean)


def test_a_vector_is_the_normalised_mean_of_its_tokens_rows(folder: Path) -> None:
    model = StaticEncoder(folder)
    got = model.embeddings(["notify breach", "days"])
    assert got.dtype == np.float32
    np.testing.assert_allclose(got[0], expected([2, 1]), rtol=1e-6)
    np.testing.assert_allclose(got[1], expected([3]), rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, rtol=1e-6)
    assert model.version == "static-test"


def test_unknown_tokens_count_for_nothing(folder: Path) -> None:
    model = StaticEncoder(folder)
    with_unknown, without = model.embeddings(["breach whatever", "breach"])
    np.testing.assert_allclose(with_unknown, without, rtol=1e-6)


def test_a_text_with_no_known_token_is_all_zeros(folder: Path) -> None:
    got = StaticEncoder(folder).embeddings(["", "nothing known here"])
    assert got.shape == (2, 3)
    assert not got.any()


def test_tokens_past_the_maximum_length_are_cut(folder: Path) -> None:
    model = StaticEncoder(folder)
    cut, kept = model.embeddings(["breach notify days days days", "breach notify days"])
    np.testing.assert_allclose(cut, kept, rtol=1e-6)


def test_no_texts_give_an_empty_matrix(folder: Path) -> None:
    assert StaticEncoder(folder).embeddings([]).shape == (0, 3)


def test_the_committed_static_model_matches_its_card_and_finds_the_answer() -> None:
    folder = MODELS_DIR / "static"
    card = (folder / "CARD.md").read_text()
    for file in ("vectors.npy", "scales.npy", "tokenizer.json", "model.json"):
        assert hashlib.sha256((folder / file).read_bytes()).hexdigest() in card, file
    model = StaticEncoder(folder)
    digest = hashlib.sha256((folder / "vectors.npy").read_bytes()).hexdigest()
    assert model.version == f"static-{digest[:12]}"
    question, answer, other = model.embeddings(
        [
            "Within how many days must a covered entity notify individuals of a breach?",
            "A covered entity shall notify each individual of a breach within 60 calendar days.",
            "The applicant shall pay the licence fee before the hearing.",
        ]
    )
    assert question @ answer > question @ other
