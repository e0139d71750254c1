"""The relevance model's labels and the gate's decision on plain-language questions
(training/relevance_pairs.py, training/relevance_gate.py), on a few hand-made pairs."""

from __future__ import annotations

import numpy as np
import pytest

from training.relevance_gate import accepted_by, calibrated, chosen_gate, outcome, platt
from training.relevance_pairs import Pair, answers_it

ANSWER = "a covered entity shall provide the notification without unreasonable delay"


@pytest.mark.parametrize(
    ("quote", "positive"),
    [
        # the answer inside a longer requirement
        (f"Except as provided in § 164.412, {ANSWER} and in no case later than 60 days.", True),
        # another section altogether
        ("Eligibility for a health plan.", False),
        # another sentence of the same section sharing a few of the answer's words
        ("A covered entity shall document the notification it provides.", False),
    ],
)
def test_a_requirement_is_positive_when_it_shares_a_long_run_of_the_answer(quote, positive):
    assert answers_it(quote, [ANSWER]) is positive


def test_a_short_answer_must_be_held_whole():
    assert answers_it("Eligibility for a health plan.", ["Eligibility for a health plan."])
    assert not answers_it(
        "a health plan shall file a statement with the Secretary",
        ["Eligibility for a health plan."],
    )


def pair(question: str, requirement: str, positive: bool, retrieved: bool = True) -> Pair:
    return Pair(question, "q?", requirement, "doc", "text", positive, retrieved, True)


QUESTIONS = [
    {"id": "A", "answerable": True, "answers": [{"doc_id": "doc"}]},
    {"id": "B", "answerable": True, "answers": [{"doc_id": "doc"}]},
    {"id": "N", "answerable": False},
]
PAIRS = [
    pair("A", "R1", True),
    pair("A", "R2", False),
    pair("B", "R3", False),
    pair("B", "R4", True, retrieved=False),  # a positive the retrieval missed: never accepted
    pair("N", "R5", False),
]


def test_the_margin_keeps_only_candidates_near_the_best():
    scores = np.array([0.9, 0.7, 0.6, 0.99, 0.3])
    assert accepted_by(PAIRS, scores, 0.5, None) == [True, True, True, False, False]
    assert accepted_by(PAIRS, scores, 0.5, 0.1) == [True, False, True, False, False]


def test_the_outcome_counts_questions_answered_rightly_and_wrongly():
    done = outcome(QUESTIONS, PAIRS, [True, True, True, False, True])
    assert (done.answered_right, done.answered_wrong, done.refused) == (1, 1, 0)
    assert (done.near_misses, done.near_misses_refused, done.wrong_pairs) == (1, 0, 3)
    assert done.gain == 1 - 1 - 1


def test_the_chosen_gate_answers_the_right_question_and_refuses_the_rest():
    scores = np.array([0.9, 0.7, 0.6, 0.99, 0.3])
    threshold, margin, done = chosen_gate(QUESTIONS, PAIRS, scores)
    assert (done.answered_right, done.answered_wrong, done.near_misses_refused) == (1, 0, 1)
    assert 0.6 < threshold <= 0.9 or (margin is not None and margin < 0.2)


def test_platt_scaling_recovers_a_known_calibration():
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 2, 4000)
    gold = rng.random(4000) < 1 / (1 + np.exp(-(0.5 * logits - 1)))
    a, b = platt(logits, gold, np.ones(4000))
    assert (a, b) == pytest.approx((0.5, -1.0), abs=0.15)
    assert calibrated(np.array([0.0]), a, b)[0] == pytest.approx(1 / (1 + np.exp(-b)), abs=1e-6)
