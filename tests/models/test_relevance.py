"""The committed models (models/relevance/, models/dense/), run as the pipeline runs them:
onnxruntime and tokenizers, no torch. They load and match their cards; the relevance model scores
committed pairs as it did when it was trained and, as the grounding gate, refuses a passage that
shares the question's words but not its subject; the encoder puts an answer nearest its
question."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from groundwork.extract.classifier import MODEL as REQUIREMENT
from groundwork.judging import judged_pairs
from groundwork.models.inference import (
    MODELS_DIR,
    CrossEncoder,
    Encoder,
    ModelInfo,
    model_version,
)
from groundwork.models.relevance import DENSE, MODEL
from groundwork.models.scores import relevance_scorer

FOLDER = MODELS_DIR / MODEL
QUESTION = "Within how many days must a covered entity notify individuals of a breach?"


@pytest.fixture(scope="module")
def model() -> CrossEncoder:
    return CrossEncoder(FOLDER)


@pytest.mark.parametrize("name", [MODEL, DENSE, REQUIREMENT])
def test_the_model_files_match_their_card(name):
    folder = MODELS_DIR / name
    card = (folder / "CARD.md").read_text()
    for file in ("model.onnx", "tokenizer.json", "model.json"):
        digest = hashlib.sha256((folder / file).read_bytes()).hexdigest()
        assert digest in card, f"{name}/{file}: sha256 not in CARD.md"
        assert (folder / file).stat().st_size < 30_000_000
    graph = hashlib.sha256((folder / "model.onnx").read_bytes()).hexdigest()
    assert model_version(name) == f"{name}-{graph[:12]}"


def test_the_dense_encoder_puts_the_answer_nearest_the_question():
    encoder = Encoder(MODELS_DIR / DENSE)
    vectors = encoder.embeddings(
        [
            QUESTION,
            "A covered entity shall notify each individual of a breach within 60 calendar days.",
            "The applicant shall pay the licence fee before the hearing.",
        ]
    )
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0, 1.0], abs=1e-3)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_committed_pairs_score_as_recorded(model):
    """Scores recorded with the shipped model when it was committed (int8 arithmetic may differ
    in the last digits between CPUs, hence the tolerance)."""
    recorded = json.loads((FOLDER / "reference.json").read_text())
    assert recorded["model"] == model.version
    got = model.scores([(p["question"], p["text"]) for p in recorded["pairs"]])
    for pair, score in zip(recorded["pairs"], got, strict=True):
        assert score == pytest.approx(pair["score"], abs=0.01), pair["text"][:60]


def test_scores_do_not_depend_on_the_batch(model):
    pairs = [
        (QUESTION, "A covered entity shall notify each individual within 60 days."),
        (QUESTION, "x " * 300),
    ]
    alone = [model.scores([p])[0] for p in pairs]
    assert model.scores(pairs) == pytest.approx(alone, abs=1e-5)


def test_the_gate_refuses_an_off_topic_passage_that_shares_the_question_words():
    scorer = relevance_scorer()
    rows = [
        {
            "id": "answers",
            "question": QUESTION,
            "text": "A covered entity shall provide the notification to individuals without "
            "unreasonable delay and in no case later than 60 calendar days after discovery of a breach.",
        },
        {
            "id": "shares-words",
            "question": QUESTION,
            "text": "A covered entity must notify individuals of its privacy practices, and "
            "must post the notice on its web site within 60 days of a material revision.",
        },
    ]
    judged = {j["id"]: j for j in judged_pairs(rows, scorer)}
    # The committed model ranks the answer above the look-alike, but its threshold, chosen on
    # ADGM text, refuses this HIPAA answer too (BENCHMARKS.md, "Trained relevance models").
    assert not judged["shares-words"]["verified"], judged["shares-words"]["rationale"]
    assert judged["shares-words"]["reason"] == "does_not_address_question"
    assert judged["answers"]["score"] > judged["shares-words"]["score"]


def test_a_calibration_is_part_of_the_version(tmp_path):
    """Scores are cached by version: a new calibration of the same graph must not read old ones."""
    meta = {"name": "m", "version": "m-abc", "labels": ["no", "yes"], "max_length": 8}
    (tmp_path / "model.json").write_text(json.dumps(meta))
    plain = ModelInfo.read(tmp_path).version
    (tmp_path / "model.json").write_text(json.dumps({**meta, "calibration": {"a": 1.2, "b": -1}}))
    calibrated = ModelInfo.read(tmp_path)
    assert plain == "m-abc" and calibrated.version != plain
    assert calibrated.calibration == (1.2, -1.0)
