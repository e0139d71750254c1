"""The closest rejected candidates (sql/report/closest_rejected.sql) on tiny frames, and the
words the report and answers.md say why each was not used in (why a quote was verified:
tests/compose/test_compose.py)."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

from groundwork.text.plain import REJECTED_BECAUSE, quote_opening, rejected_because
from groundwork.warehouse.sqlfiles import Sql, literal_sql
from schemas.verifications import REJECTION_REASONS

SCORED = "trained:relevance-abc"
RULES = "rules-verifier 1.1"


def verdict(qid: str, rid: str, reason: str | None, score: float | None, cover: float) -> dict:
    """One verifications row with what the query reads."""
    return {
        "question_id": qid,
        "requirement_id": rid,
        "verified": reason is None,
        "rejection_reason": reason,
        "rationale": f"rationale of {rid}",
        "score": score,
        "threshold": 0.4 if score is not None else None,
        "quote_coverage": cover,
        "verifier": SCORED if score is not None else RULES,
    }


def closest(rows: list[dict]) -> list[tuple[str, int, str]]:
    """(question, rank, requirement) of the query's answer on these verifications."""
    verifications = pd.DataFrame(rows)
    ids = sorted({r["requirement_id"] for r in rows})
    requirements = pd.DataFrame(
        {
            "requirement_id": ids,
            "exact_quote": [f"The quote of {rid}." for rid in ids],
            "label_path": ["164.404(a)"] * len(ids),
            "doc_id": ["d1"] * len(ids),
        }
    )
    with duckdb.connect() as con:
        con.execute(
            "CREATE TABLE documents AS SELECT 'd1' AS doc_id, '45 CFR' AS citation, 't' AS title"
        )
        con.register("v", verifications)
        con.register("r", requirements)
        sql = literal_sql("report/closest_rejected", verifications=Sql("v"), requirements=Sql("r"))
        found = con.execute(sql).fetchall()
        columns = [d[0] for d in con.description]
    assert {"exact_quote", "citation", "title", "rejection_reason", "rationale"} <= set(columns)
    assert {"score", "threshold", "quote_coverage", "label_path"} <= set(columns)
    at = {name: columns.index(name) for name in ("question_id", "rank", "requirement_id")}
    return [(row[at["question_id"]], row[at["rank"]], row[at["requirement_id"]]) for row in found]


def test_the_model_score_ranks_before_coverage_and_at_most_three_are_kept():
    rows = [
        verdict("Q1", "REQ-S0001", None, 0.95, 0.9),  # verified: never listed
        verdict("Q1", "REQ-S0002", "does_not_address_question", 0.10, 0.99),
        verdict("Q1", "REQ-S0003", "does_not_address_question", 0.35, 0.05),
        verdict("Q1", "REQ-S0004", "incomplete_quote", 0.60, 0.10),
        verdict("Q1", "REQ-S0005", "does_not_address_question", 0.20, 0.50),
        verdict("Q1", "REQ-S0006", "not_verbatim", None, 1.0),  # never judged on its meaning
    ]
    assert closest(rows) == [
        ("Q1", 1, "REQ-S0004"),
        ("Q1", 2, "REQ-S0003"),
        ("Q1", 3, "REQ-S0005"),
    ]


def test_without_a_score_coverage_ranks_and_ties_go_by_requirement():
    rows = [
        verdict("Q2", "REQ-S0019", "does_not_address_question", None, 0.27),
        verdict("Q2", "REQ-S0018", "requires_inference", None, 0.29),
        verdict("Q2", "REQ-S0011", "requires_inference", None, 0.29),
        verdict("Q2", "REQ-S0010", "not_verbatim", None, 0.80),
        verdict("Q3", "REQ-S0030", "does_not_address_question", None, 0.01),
        verdict("Q4", "REQ-S0040", None, None, 0.90),  # answered, nothing rejected: no rows
    ]
    assert closest(rows) == [
        ("Q2", 1, "REQ-S0011"),
        ("Q2", 2, "REQ-S0018"),
        ("Q2", 3, "REQ-S0019"),
        ("Q3", 1, "REQ-S0030"),
    ]


def test_a_scored_candidate_ranks_before_an_unscored_one_whatever_its_coverage():
    rows = [
        verdict("Q1", "REQ-S0001", "does_not_address_question", None, 0.99),
        verdict("Q1", "REQ-S0002", "does_not_address_question", 0.01, 0.0),
    ]
    assert [rid for _, _, rid in closest(rows)] == ["REQ-S0002", "REQ-S0001"]


@pytest.mark.parametrize(
    ("row", "said"),
    [
        (
            {"rejection_reason": "does_not_address_question", "score": 0.213, "threshold": 0.4},
            "does not answer the question: the model reads 0.21, the best candidate "
            "0.93; it accepts from 0.40",
        ),
        (  # a threshold set to three places is shown so, not as the reading it turned down
            {"rejection_reason": "does_not_address_question", "score": 0.4996, "threshold": 0.505},
            "does not answer the question: the model reads 0.50, the best candidate "
            "0.93; it accepts from 0.505",
        ),
        (  # above the threshold, turned down for standing too far below the best candidate
            {"rejection_reason": "does_not_address_question", "score": 0.61, "threshold": 0.505},
            "another candidate answers the question better: the model reads 0.61, the best "
            "candidate 0.93",
        ),
        (
            {"rejection_reason": "does_not_address_question", "score": None, "threshold": None},
            "does not answer the question: the quote covers 7% of the weight of the question's "
            "words (breach)",
        ),
        (
            {"rejection_reason": "incomplete_quote", "score": 0.55, "threshold": 0.4},
            "refers to text it does not quote: the quote covers 7% of the weight of the "
            "question's words (breach)",
        ),
        (
            {"rejection_reason": "requires_inference", "score": None, "threshold": None},
            "only the surrounding text answers it: the quote covers 7% of the weight of the "
            "question's words (breach)",
        ),
    ],
)
def test_a_rejected_candidate_says_why_in_words(row, said):
    rationale = "the quote covers 7% of the weight of the question's words (breach)"
    assert rejected_because({**row, "rationale": rationale}, 0.93) == said


def test_every_rejection_reason_has_its_phrase_and_quotes_open_on_their_first_words():
    assert set(REJECTED_BECAUSE) == set(REJECTION_REASONS)
    assert quote_opening("A covered  entity shall\nnotify.", words=3) == "A covered entity …"
    assert quote_opening("A covered entity shall notify.", words=5) == (
        "A covered entity shall notify."
    )
