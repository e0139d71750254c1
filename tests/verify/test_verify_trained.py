"""The trained grounding gate's decision: the threshold, then the margin below the question's
best candidate, with a stub in place of the relevance model (the decision, not the model)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from groundwork.verify.trained import Gate, TrainedVerifier
from tests.support.verification import CHUNK, pair

SENTENCES = [  # verbatim in CHUNK
    "a covered entity shall provide the notification without unreasonable delay",
    "in no case later than 60 calendar days after discovery of a breach.",
    "Timeliness of notification.",
]


def candidates(question: str = "How fast must we notify?") -> pa.Table:
    """Three verbatim candidates of one question, each with the fields the gate reads."""
    rows = []
    for i, quote in enumerate(SENTENCES):
        row = pair(question, quote=quote)
        row |= {"requirement_id": f"REQ-S000{i + 1}", "doc_id": "d", "heading": None}
        rows.append(row | {"title": "45 CFR 164.404", "citation": None})
    return pa.Table.from_pylist(rows)


def verdicts(
    scores: list[float], gate: Gate, question: str = "How fast must we notify?"
) -> list[dict]:
    def stub(texts):
        assert [t[0] for t in texts] == [question] * len(texts)
        return np.array(scores)

    table = TrainedVerifier({}, stub, gate).verifications(candidates(question))
    return sorted(table.to_pylist(), key=lambda r: r["requirement_id"])


def test_only_the_threshold_decides_without_a_margin():
    rows = verdicts([0.9, 0.6, 0.3], Gate(0.5, "relevance-test"))
    assert [r["verified"] for r in rows] == [True, True, False]
    assert rows[2]["rejection_reason"] == "does_not_address_question"
    assert rows[2]["rationale"].startswith("does not answer the question: the model")


def test_a_candidate_far_below_the_best_is_refused():
    rows = verdicts([0.9, 0.6, 0.85], Gate(0.5, "relevance-test", margin=0.1))
    assert [r["verified"] for r in rows] == [True, False, True]
    assert rows[1]["rejection_reason"] == "does_not_address_question"
    assert "another candidate answers the question better" in rows[1]["rationale"]
    assert "best candidate 0.90" in rows[1]["rationale"]
    assert rows[0]["rationale"].startswith("answers the question: the model reads 0.90")


def test_the_gate_is_shown_as_it_was_set():
    rows = verdicts([0.9, 0.6, 0.4996], Gate(0.505, "relevance-test", margin=0.125))
    assert "(threshold 0.505, margin 0.125)" in rows[2]["rationale"]
    assert "the model reads 0.50, the question's best candidate 0.90" in rows[2]["rationale"]


def test_under_the_threshold_a_quote_passes_only_with_the_questions_words():
    """The lower threshold takes a quote the lexical rules verify (the first holds "notification
    without unreasonable delay"); the second, read as high, holds none of the words."""
    question = "When is notification without unreasonable delay required?"
    rows = verdicts([0.49, 0.49, 0.6], Gate(0.505, "relevance-test", lexical=0.485), question)
    assert [r["verified"] for r in rows] == [True, False, True]
    assert "(threshold 0.505, 0.485 with the question's words)" in rows[0]["rationale"]
    assert "and the quote holds the question's words" in rows[0]["rationale"]
    assert rows[1]["rejection_reason"] == "does_not_address_question"
    below = verdicts([0.48, 0.49, 0.6], Gate(0.505, "relevance-test", lexical=0.485), question)
    assert [r["verified"] for r in below] == [False, False, True]
    alone = verdicts([0.49, 0.49, 0.6], Gate(0.505, "relevance-test"), question)
    assert [r["verified"] for r in alone] == [False, False, True]


def test_nothing_passes_when_the_best_is_below_the_threshold():
    rows = verdicts([0.45, 0.44, 0.1], Gate(0.5, "relevance-test", margin=0.2))
    assert not any(r["verified"] for r in rows)
    assert {r["score"] for r in rows} == {0.45, 0.44, 0.1}


def test_the_candidates_are_verbatim():
    assert all(sentence in CHUNK for sentence in SENTENCES)


def test_the_rules_reason_stays_beside_the_models_score():
    rows = verdicts([0.9, 0.6, 0.3], Gate(0.5, "relevance-test"))
    assert all("; by the rules, the " in r["rationale"] for r in rows)
    assert "by the rules, the quote covers 0% of the weight" in rows[1]["rationale"]


def test_the_margin_counts_from_the_best_candidate_that_stands_on_its_own():
    """A lead-in without its items scores high and is refused as incomplete; it must not push
    the quote that does answer outside the margin."""
    chunk = "A covered entity shall include the following: a brief description of the breach."
    rows = []
    for i, quote in enumerate(
        ["A covered entity shall include the following:", "a brief description of the breach."]
    ):
        row = pair("What goes in the notice?", quote=quote, chunk=chunk)
        rows.append(
            row
            | {
                "requirement_id": f"REQ-S000{i + 1}",
                "doc_id": "d",
                "heading": None,
                "title": "t",
                "citation": None,
            }
        )
    gate = Gate(0.5, "relevance-test", margin=0.1)
    table = TrainedVerifier({}, lambda texts: np.array([0.9, 0.7]), gate).verifications(
        pa.Table.from_pylist(rows)
    )
    lead, item = sorted(table.to_pylist(), key=lambda r: r["requirement_id"])
    assert lead["rejection_reason"] == "incomplete_quote"
    assert item["verified"], item["rationale"]
