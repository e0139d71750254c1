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


def test_a_list_or_such_inside_the_quote_does_not_dangle():
    """Conditions ending a duty ("only if:"), a colon bringing "the following" items, and a
    "such ... as/that" that points forward all leave the quote whole."""
    assert dangling_reference("A covered entity may disclose it only if:", None) is None
    statement = "Provide in opt-out form the following statement: “Do not share my information.”"
    assert dangling_reference(statement, None) is None
    assert dangling_reference("The entity must act within 30 days as follows.", None)
    assert (
        dangling_reference("Change your practices in such a way that the notice fails.", None)
        is None
    )
    ruled = "Within 10 days, or such other time as may be fixed by the ALJ, a party may respond."
    assert dangling_reference(ruled, None) is None
    assert dangling_reference("If such a request is made, respond within 30 days.", None)
