"""Extractive composition: statements quote and cite, offsets are exact, tensions shown both ways."""

from __future__ import annotations

import pyarrow as pa

from groundwork.compose.draft import grounding_confidence
from groundwork.compose.tables import answers
from schemas.config import ClaimChecks

QUESTION = {
    "question_id": "Q1",
    "question": "Must we notify individuals of a breach?",
    "topic": "breach",
    "category": None,
    "source_types": [],
    "jurisdiction": None,
}


def evidence(
    rid: str,
    quote: str,
    modality: str = "obligation",
    trigger: str = "shall",
    source_type: str = "regulation",
    lead_in: str | None = None,
) -> dict:
    return {
        "question_id": "Q1",
        "chunk_rank": 1,
        "requirement_id": rid,
        "exact_quote": quote,
        "lead_in_quote": lead_in,
        "normalised_quote": quote.lower(),
        "modality": modality,
        "trigger": trigger,
        "label_path": "164.404(a)(1)",
        "doc_id": "d",
        "citation": "45 CFR § 164.404",
        "title": "Notification",
        "source_type": source_type,
        "jurisdiction": "US-Federal",
    }


def composed(rows: list[dict], rejected: list[dict] | None = None):
    tables = answers(
        pa.Table.from_pylist([QUESTION]),
        pa.Table.from_pylist(rows)
        if rows
        else pa.table({"question_id": pa.array([], pa.string())}),
        pa.Table.from_pylist(
            rejected or [],
            schema=pa.schema(
                [
                    ("question_id", pa.string()),
                    ("rejection_reason", pa.string()),
                    ("n", pa.int64()),
                    ("named", pa.string()),  # what the question names that no document mentions
                ]
            ),
        ),
        ClaimChecks(),
    )
    return [tables[name].to_pylist() for name in ("answers", "statements", "citations")]


def test_statements_quote_cite_and_sit_at_exact_offsets():
    rows = [
        evidence("REQ-S0001", "A covered entity shall notify each individual of a breach."),
        evidence(
            "REQ-P0001",
            "Staff must report a breach to the privacy office within 1 hour.",
            trigger="must",
            source_type="policy",
        ),
    ]
    (answer,), statements, citations = composed(rows)
    assert answer["result"] == "ANSWERED" and answer["grounding_confidence"] == "medium"
    assert [s["section"] for s in statements] == ["statutes", "policies"]
    for s in statements:
        assert answer["final_answer"][s["char_start"] : s["char_end"]] == s["text"]
    assert [c["requirement_id"] for c in citations] == ["REQ-S0001", "REQ-P0001"]
    assert "A covered entity shall notify each individual of a breach." in statements[0]["text"]
    assert statements[1]["claim_type"] == "numeric"  # "within 1 hour"
    assert statements[0]["claim_type"] == "general"

    assert answer["statute_summary"].startswith("1 obligation from 45 CFR § 164.404")
    assert answer["policy_summary"] is not None


def test_a_section_number_alone_does_not_make_a_statement_numeric():
    rows = [
        evidence("REQ-S0001", "Except as provided in § 164.412, a covered entity shall notify.")
    ]
    _, (statement,), _ = composed(rows)
    assert statement["claim_type"] == "general"


def test_obligation_and_permission_on_one_action_are_shown_both_ways():
    rows = [
        evidence("REQ-S0001", "The covered entity shall disclose the records to the patient."),
        evidence(
            "REQ-S0002",
            "The covered entity may disclose the records to a relative.",
            modality="permission",
            trigger="may",
        ),
    ]
    _, statements, citations = composed(rows)
    tension = [s for s in statements if s["section"] == "tensions"]
    assert len(tension) == 1
    cited = {
        c["requirement_id"] for c in citations if c["statement_id"] == tension[0]["statement_id"]
    }
    assert cited == {"REQ-S0001", "REQ-S0002"}


def test_requirements_that_only_mention_the_same_things_are_no_tension():
    rows = [
        evidence(
            "REQ-S0001",
            "A business associate shall ensure that any subcontractors that create or receive "
            "records agree to the same restrictions.",
        ),
        evidence(
            "REQ-S0002",
            "A business associate may permit a subcontractor to create or receive records on "
            "its behalf.",
            modality="permission",
            trigger="may",
        ),
    ]
    _, statements, _ = composed(rows)
    assert not [s for s in statements if s["section"] == "tensions"]


def test_no_evidence_says_what_is_missing():
    (answer,), statements, citations = composed(
        [], [{"question_id": "Q1", "rejection_reason": "does_not_address_question", "n": 4}]
    )
    assert answer["result"] == "NO_AUTHORITATIVE_EVIDENCE"
    assert answer["final_answer"].startswith("NO_AUTHORITATIVE_EVIDENCE")
    missing = answer["missing_evidence"]
    assert "No requirement on breach was verified" in missing
    assert "the question's words: notify, individuals, breach" in missing  # not stems
    assert "4 candidate requirements were checked: 4 did not address the question" in missing
    assert statements == [] and citations == []


def test_grounding_confidence_bands():
    assert [grounding_confidence(n) for n in (0, 1, 2, 4, 5, 9)] == [
        "insufficient",
        "low",
        "medium",
        "medium",
        "high",
        "high",
    ]


def test_quoted_and_tension_statements_are_supported_by_construction():
    rows = [
        evidence("REQ-S0001", "The covered entity shall disclose the records to the patient."),
        evidence(
            "REQ-S0002",
            "The covered entity may disclose the records to a relative.",
            modality="permission",
            trigger="may",
        ),
    ]
    _, statements, _ = composed(rows)
    assert [(s["form"], s["verdict"]) for s in statements] == [
        ("quote", "SUPPORTED"),
        ("quote", "SUPPORTED"),
        ("tension", "SUPPORTED"),
    ]


def test_answers_are_grouped_by_who_bears_them_under_an_overview():
    rows = [
        {
            **evidence("REQ-S0001", "A covered entity shall notify the individual."),
            "subject": "A covered entity",
        },
        {
            **evidence(
                "REQ-S0002",
                "A business associate shall notify the covered entity not later than 60 days after discovery.",
            ),
            "subject": "A business associate",
        },
        {
            **evidence("REQ-S0003", "The covered entity shall keep a log of breaches."),
            "subject": "The covered entity",
        },
        {
            **evidence("REQ-S0004", "Notice shall be provided to the Secretary."),
            "subject": "Notice",
        },
    ]
    (answer,), statements, _ = composed(rows)
    lines = answer["final_answer"].splitlines()
    assert lines[0] == (
        "4 verified requirements: 2 obligations on covered entity, 1 on business associate, "
        "1 with no named subject; deadlines: 60 days."
    )
    headings = [line for line in lines if line.endswith(":")]
    assert headings == [
        "Statutes and regulations:",
        "Covered entity — 2 obligations:",
        "Business associate — 1 obligation:",
        "No named subject — 1 obligation:",
    ]
    # "A covered entity" and "The covered entity" are one group, quoted in rank order
    cited = [s["text"].split("[")[-1] for s in statements]
    assert cited == ["REQ-S0001]", "REQ-S0003]", "REQ-S0002]", "REQ-S0004]"]


def test_the_bearer_is_the_noun_a_relative_clause_qualifies_not_the_words_before_the_modal():
    from groundwork.compose.groups import NO_SUBJECT, bearer

    quote = "A covered entity that holds or discloses protected health information shall notify."
    assert (
        bearer(
            {
                "exact_quote": quote,
                "subject": "discloses protected health information",
                "trigger": "shall",
            }
        )
        == "covered entity"
    )
    assert (
        bearer({"exact_quote": "It shall notify.", "subject": "It", "trigger": "shall"})
        == NO_SUBJECT
    )
    assert (
        bearer(
            {
                "exact_quote": "The Secretary shall publish a list.",
                "subject": "The Secretary",
                "trigger": "shall",
            }
        )
        == "Secretary"
    )
    assert bearer({"exact_quote": "x", "subject": None, "trigger": "shall"}) == NO_SUBJECT


def test_missing_evidence_and_reasons_are_in_words():
    from collections import Counter

    from groundwork.text.plain import REJECTIONS, rejections_text, verified_because
    from schemas.verifications import REJECTION_REASONS

    assert set(REJECTIONS) == set(REJECTION_REASONS)  # every code has its gloss
    assert rejections_text(Counter()) == "No candidate requirement was retrieved for it."
    assert rejections_text(Counter({"requires_inference": 1})) == (
        "1 candidate requirement was checked: 1 addressed it only together with the text "
        "around the quote."
    )
    question = "What must a covered entity do after discovering a breach?"
    rules = {
        "verifier": "rules-verifier 1.1",
        "matched_terms": ["breach", "discov", "entiti"],
        "quote_coverage": 0.8,
    }
    assert verified_because(rules, question, None) == (
        "the quote holds the question's words breach, discovering, entity (80% of their weight)"
    )
    trained = {"verifier": "trained:relevance-abc", "score": 0.912, "threshold": 0.5}
    assert verified_because(trained, question, 0.93) == (
        "answers the question: the model reads 0.91, the best candidate 0.93"
    )
    # under the threshold, the gate took it for holding the question's words too
    worded = {**rules, **trained, "score": 0.49, "threshold": 0.505}
    assert verified_because(worded, question, 0.93) == (
        "answers the question: the model reads 0.49, the best candidate 0.93, under its "
        "threshold 0.505, and the quote holds the question's words breach, discovering, entity "
        "(80% of their weight)"
    )
