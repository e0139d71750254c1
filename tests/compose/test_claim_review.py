"""Statements reviewed claim by claim while an answer is written (groundwork/compose/draft.py Draft):
planted faults get the right verdict and citation correction, and what fails is softened or
removed, never published as fact. Real quotes from the sample corpus."""

from __future__ import annotations

import pytest

from groundwork.compose.draft import Draft
from schemas.config import ClaimChecks
from tests.support.texts import BUSINESS_ASSOCIATE, LOG, NOTIFY, RETAIN


def requirement(rid: str, quote: str) -> dict:
    return {
        "requirement_id": rid,
        "exact_quote": quote,
        "lead_in_quote": None,
        "source_type": "regulation",
    }


POOL = {
    rid: requirement(rid, quote)
    for rid, quote in (
        ("REQ-S0001", RETAIN),
        ("REQ-S0002", NOTIFY),
        ("REQ-S0003", BUSINESS_ASSOCIATE),
        ("REQ-S0004", LOG),
    )
}


def reviewed(claim: str, cites: str, **settings) -> Draft:
    draft = Draft("Q1", ClaimChecks(**settings), POOL)
    draft.statement("statutes", claim, [POOL[cites]], "claim")
    return draft


def test_a_true_paraphrase_is_supported_and_published_as_written():
    claim = (
        "Covered entities have to keep the required documentation for six years from its "
        "creation or from when it was last in effect, whichever is later."
    )
    draft = reviewed(claim, "REQ-S0001")
    (row,) = draft.claims
    assert (row["verdict"], row["action"]) == ("SUPPORTED", "kept")
    assert draft.statements[0]["text"] == f"{claim} [REQ-S0001]"
    assert draft.statements[0]["verdict"] == "SUPPORTED" and draft.corrections == []


def test_a_changed_number_is_contradicted_and_removed():
    claim = "A covered entity must retain the required documentation for three years."
    draft = reviewed(claim, "REQ-S0001")
    (row,) = draft.claims
    assert row["verdict"] == "CONTRADICTED" and row["action"] == "removed"
    assert any("differs" in issue for issue in row["issues"]), row["issues"]
    assert draft.statements == [] and draft.citations == []  # nothing of it is published
    assert draft.claims[0]["statement_id"] == "Q1#R01"


def test_may_rewritten_as_must_is_contradicted():
    claim = (
        "If the breach was with respect to less than 500 individuals, the covered entity must "
        "maintain a log of any such breach occurring."
    )
    (row,) = reviewed(claim, "REQ-S0004").claims
    assert row["verdict"] == "CONTRADICTED"
    assert any(issue.startswith("modality changed") for issue in row["issues"]), row["issues"]


def test_a_swapped_actor_is_contradicted():
    claim = (
        "Following the discovery of a breach of unsecured protected health information, the "
        "covered entity must notify the business associate of the breach."
    )
    (row,) = reviewed(claim, "REQ-S0003").claims
    assert row["verdict"] == "CONTRADICTED"
    assert any(issue.startswith("actor changed") for issue in row["issues"]), row["issues"]


RETAINED = (
    "A covered entity must retain the required documentation for six years from its creation "
    "or from when it was last in effect, whichever is later."
)


def test_a_claim_citing_the_wrong_requirement_is_re_cited():
    draft = reviewed(RETAINED, "REQ-S0003")  # cites the business associate's duty
    (row,) = draft.claims
    assert row["verdict_before"] == "UNSUPPORTED" and row["verdict"] == "SUPPORTED"
    (fix,) = draft.corrections
    assert (fix["action"], fix["from_requirement_id"], fix["to_requirement_id"]) == (
        "REPLACE",
        "REQ-S0003",
        "REQ-S0001",
    )
    assert draft.statements[0]["text"].endswith("[REQ-S0001]")
    assert [c["requirement_id"] for c in draft.citations] == ["REQ-S0001"]


def test_without_correction_the_wrong_citation_stays_and_the_claim_is_softened():
    draft = reviewed(RETAINED, "REQ-S0003", correct_citations=False)
    assert draft.corrections == []
    assert draft.statements[0]["text"] == (
        f"{RETAINED.removesuffix('.')} (unverified). [REQ-S0003]"
    )
    assert draft.statements[0]["verdict"] == "UNSUPPORTED"


@pytest.mark.parametrize(
    ("strategy", "published"),
    [
        ("mark_unverified", "Hospitals must publish their prices online (unverified)."),
        ("hedge", "It appears that hospitals must publish their prices online."),
        (
            "qualify",
            "Hospitals must publish their prices online (not established by the cited text).",
        ),
        ("remove", None),
    ],
)
def test_an_unsupported_claim_is_softened_by_policy(strategy: str, published: str | None):
    claim = "Hospitals must publish their prices online."
    draft = reviewed(claim, "REQ-S0002", softening=strategy)
    (row,) = draft.claims
    assert row["verdict"] == "UNSUPPORTED" and row["published_text"] == published
    texts = [s["text"] for s in draft.statements]
    assert texts == ([] if published is None else [f"{published} [REQ-S0002]"])


def test_a_statement_with_several_facts_is_checked_fact_by_fact():
    claim = f"{RETAINED.removesuffix('.')}, and must notify each affected individual of a breach within 90 calendar days."
    draft = reviewed(claim, "REQ-S0001")
    verdicts = [(c["text"], c["verdict"]) for c in draft.claims]
    assert len(verdicts) == 2, verdicts
    assert verdicts[0][1] == "SUPPORTED"
    assert verdicts[1][0].startswith("A covered entity must notify")  # self-contained
    assert verdicts[1][1] in ("CONTRADICTED", "UNSUPPORTED")  # 90 days is nobody's deadline
    published = draft.statements[0]["text"]
    assert "six years" in published
    assert "90 calendar days" not in published or "(unverified)" in published


def test_quotes_are_their_own_evidence_and_never_rewritten():
    draft = Draft("Q1", ClaimChecks(), POOL)
    body = f'45 CFR § 164.530(j)(2) (obligation): "{RETAIN}"'
    draft.statement("statutes", body, [POOL["REQ-S0001"]], "quote")
    assert draft.statements[0]["text"] == f"{body} [REQ-S0001]"
    assert [c["verdict"] for c in draft.claims] == ["SUPPORTED"]
