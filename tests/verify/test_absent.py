"""A question naming an acronym the corpus never mentions, written or spelled out, has every
candidate rejected, with the name in the reason and in the answer's missing evidence; one the
corpus spells out is known."""

from __future__ import annotations

from collections import Counter

import duckdb
import pyarrow as pa
import pytest

from groundwork.compose.draft import missing_evidence
from groundwork.verify.absent import (
    NAMED_PATTERN,
    absent_acronyms,
    absent_names,
    question_acronyms,
    with_absent_names,
)
from groundwork.warehouse.sqlfiles import Sql, literal_sql
from schemas.verifications import VERIFICATIONS_SCHEMA

TEXTS = [
    "A covered entity must protect protected health information (the Privacy Rule).",
    "The Department of Health and Human Services may impose a penalty.",
    "Code sets: ICD-10-CM for diagnoses.",
    "An archived text that names the GDPR.",
]


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("CREATE TABLE documents (doc_id VARCHAR, text VARCHAR, status VARCHAR)")
    statuses = ["active", "active", "active", "retired"]
    con.executemany(
        "INSERT INTO documents VALUES (?, ?, ?)",
        [
            [f"d{i}", text, status]
            for i, (text, status) in enumerate(zip(TEXTS, statuses, strict=True))
        ],
    )
    return con


def test_acronyms_of_a_question():
    question = "Under the GDPR or CAN-SPAM, must we use ICD-10 codes? I think so, OK?"
    assert question_acronyms(question) == ["GDPR", "CAN-SPAM", "ICD-10", "OK"]
    assert question_acronyms("What must a covered entity do?") == []


def test_absent_is_what_no_active_document_writes_or_spells_out(con):
    named = ["PHI", "HHS", "ICD-10", "GDPR", "CAN-SPAM", "PRIVACY"]
    # PHI and HHS spelled out, ICD-10 written within ICD-10-CM, PRIVACY written (any case);
    # GDPR only in a retired document
    assert absent_acronyms(con, named, vocabulary=set()) == {"GDPR", "CAN-SPAM"}
    assert absent_acronyms(con, ["GDPR"], vocabulary={"gdpr"}) == set()


def test_every_candidate_of_such_a_question_is_rejected_with_the_name(con):
    questions = pa.table(
        {
            "question_id": ["Q1", "Q2", "Q2"],
            "question": ["Is PHI covered?", *["Under the GDPR, must we notify?"] * 2],
        }
    )
    absent = absent_names(con, questions, vocabulary=set())
    assert absent == {"Q2": ["GDPR"]}
    base = dict.fromkeys(VERIFICATIONS_SCHEMA.names)
    rows = [
        {**base, "question_id": "Q1", "requirement_id": "R1", "verified": True},
        {**base, "question_id": "Q2", "requirement_id": "R2", "verified": True, "rationale": "ok"},
    ]
    table = pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)
    judged = with_absent_names(table, absent).to_pylist()
    assert judged[0]["verified"] and judged[0]["rejection_reason"] is None
    assert not judged[1]["verified"]
    assert judged[1]["rejection_reason"] == "does_not_address_question"
    assert judged[1]["rationale"].startswith("the question names GDPR, which no document")
    assert judged[1]["rationale"].endswith("; ok")


def test_the_answer_names_what_the_corpus_never_mentions(con):
    """The rejection counts read the names back from the reason, and the missing evidence of a
    refused answer says them."""
    base = dict.fromkeys(VERIFICATIONS_SCHEMA.names)
    rows = [
        {**base, "question_id": q, "requirement_id": f"R{i}", "verified": True, "rationale": "x"}
        for i, q in enumerate(["Q1", "Q2", "Q2"])
    ]
    table = pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)
    rejected = with_absent_names(table, {"Q2": ["GDPR", "CAN-SPAM"]})
    con.register("judged", rejected)
    sql = literal_sql("answers/rejection_counts", verifications=Sql("judged"), named=NAMED_PATTERN)
    assert con.execute(sql).fetchall() == [("Q2", "does_not_address_question", 2, "GDPR, CAN-SPAM")]
    question = {
        "question": "Under the GDPR or CAN-SPAM, must we notify?",
        "topic": None,
        "source_types": None,
        "jurisdiction": None,
        "absent_names": "GDPR, CAN-SPAM",
    }
    said = missing_evidence(question, Counter(does_not_address_question=2))
    assert said.endswith(
        "2 candidate requirements were checked: 2 did not address the question. The question "
        "names GDPR, CAN-SPAM, which no document of the corpus mentions."
    )
    assert "names" not in missing_evidence({**question, "absent_names": None}, Counter())
