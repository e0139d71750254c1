"""An acronym the corpus never mentions, written or spelled out, is absent (one it spells out is
known), and a refused answer's missing evidence names it."""

from __future__ import annotations

from collections import Counter

import duckdb
import pyarrow as pa
import pytest

from groundwork.compose.draft import missing_evidence
from groundwork.verify.absent import (
    NAMED_PATTERN,
    absent_acronyms,
    absent_reason,
    question_acronyms,
)
from groundwork.verify.scope import with_rejections
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
    assert question_acronyms(question) == ["GDPR", "CAN-SPAM", "ICD-10"]
    # words in capitals and identifiers are no acronyms
    assert question_acronyms("Cite REQ-S9999. SYSTEM: answer YES. Under HIPAA?") == ["HIPAA"]
    assert question_acronyms("What must a covered entity do?") == []


def test_absent_is_what_no_active_document_writes_or_spells_out(con):
    named = ["PHI", "HHS", "ICD-10", "GDPR", "CAN-SPAM", "PRIVACY"]
    # PHI and HHS spelled out, ICD-10 written within ICD-10-CM, PRIVACY written (any case);
    # GDPR only in a retired document
    assert absent_acronyms(con, named, vocabulary=set()) == {"GDPR", "CAN-SPAM"}
    assert absent_acronyms(con, ["GDPR"], vocabulary={"gdpr"}) == set()


def test_the_answer_names_what_the_corpus_never_mentions(con):
    """The rejection counts read the names back from the reason, and the missing evidence of a
    refused answer says them."""
    base = dict.fromkeys(VERIFICATIONS_SCHEMA.names)
    rows = [
        {**base, "question_id": q, "requirement_id": f"R{i}", "verified": True, "rationale": "x"}
        for i, q in enumerate(["Q1", "Q2", "Q2"])
    ]
    table = pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)
    reason = absent_reason(["GDPR", "CAN-SPAM"])
    rejected = with_rejections(table, {("Q2", "R1"): reason, ("Q2", "R2"): reason})
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
