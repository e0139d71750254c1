"""The grounding gate: each verdict, from the question, one requirement and its chunk only."""

from __future__ import annotations

from groundwork.verify.rules import TermWeights, dangling_reference, verdict
from tests.support.verification import CHUNK, QUOTE, pair

IDF = TermWeights.of(
    {
        "notif": 2.0,
        "notifi": 2.0,
        "breach": 2.0,
        "day": 3.0,
        "calendar": 3.0,
        "discov": 2.0,
        "discoveri": 2.0,
        "cover": 1.0,
        "entiti": 1.0,
        "delay": 2.5,
        "timeli": 3.0,
        "password": 4.0,
    }
)


def test_verified_when_the_quote_answers():
    row = verdict(
        pair("How many calendar days after discovering a breach do we have to notify?"), IDF
    )
    assert row["verified"] and row["rejection_reason"] is None
    assert "day" in row["matched_terms"] and row["quote_coverage"] >= 0.5


def test_not_verbatim():
    tampered = pair("How many days after a breach must we notify?")
    tampered["exact_quote"] = QUOTE.replace("60", "90")
    row = verdict(tampered, IDF)
    assert (row["verified"], row["rejection_reason"]) == (False, "not_verbatim")


def test_does_not_address_question():
    row = verdict(pair("How long must passwords be?"), IDF)
    assert row["rejection_reason"] == "does_not_address_question"


def test_requires_inference_when_only_the_chunk_answers():
    quote = "a covered entity shall provide the notification without unreasonable delay"
    chunk = CHUNK
    row = verdict(
        pair(
            "What is the timeliness rule, in calendar days, for breach notification?",
            quote=quote,
            chunk=chunk,
        ),
        IDF,
    )
    assert row["rejection_reason"] == "requires_inference"


def test_incomplete_quote():
    chunk = "Such notice shall include the following: the date of the breach and of its discovery."
    quote = "Such notice shall include the following:"
    row = verdict(
        pair(
            "What must a breach notice include about the breach date and discovery?",
            quote=quote,
            chunk=chunk,
        ),
        IDF,
    )
    assert row["rejection_reason"] == "incomplete_quote"


def test_dangling_references():
    assert dangling_reference("The notice shall include the following:", None)
    assert dangling_reference("Such breach shall be reported to the board.", None)
    assert dangling_reference("The entity shall act, see § 164.404.", None)
    assert dangling_reference("A breach shall be reported; such breach is logged.", None) is None
    assert dangling_reference("Conduct an assessment.", "A covered entity must:") is None
