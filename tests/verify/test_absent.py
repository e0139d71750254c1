"""An acronym the corpus never mentions, written or spelled out, is absent (one it spells out is
known), as is a state's law or a provision it does not hold, and a refused answer's missing
evidence names it."""

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
    absent_reason,
    question_acronyms,
)
from groundwork.verify.citations import question_citations
from groundwork.verify.jurisdictions import named_state_laws
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
    con.execute(
        "CREATE TABLE documents (doc_id VARCHAR, citation VARCHAR, text VARCHAR, status VARCHAR)"
    )
    statuses = ["active", "active", "active", "retired"]
    con.executemany(
        "INSERT INTO documents VALUES (?, NULL, ?, ?)",
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


def test_the_laws_of_a_state_a_question_names():
    assert named_state_laws(
        "Under Texas medical records privacy law, how soon must staff be trained?"
    ) == ["Texas medical records privacy law"]
    assert named_state_laws("Under Washington's Involuntary Treatment Act, how long?") == [
        "Washington's Involuntary Treatment Act"
    ]
    assert named_state_laws("Does the New York Human Rights Law protect me?") == [
        "New York Human Rights Law"
    ]
    assert named_state_laws("Florida law says we notify within 30 days.") == ["Florida law"]
    # a place, not its law
    assert named_state_laws("Our Texas clinic had a breach. Who do we tell?") == []
    assert named_state_laws("Our Texas clinic must follow the rules on breaches.") == []


def test_a_states_law_the_corpus_does_not_hold_is_absent():
    """ "Under Texas law" names what a corpus of federal, New York and D.C. law does not hold:
    every candidate is rejected; New York's law it holds, and a Texas clinic is only a place."""
    con = duckdb.connect()
    con.execute("CREATE TABLE document_rows (doc_id VARCHAR, jurisdiction VARCHAR, status VARCHAR)")
    con.execute(
        "CREATE TABLE documents (doc_id VARCHAR, citation VARCHAR, text VARCHAR, status VARCHAR)"
    )
    held = [("d1", "US-Federal"), ("d2", "US-NY"), ("d3", "US-DC"), ("d4", "US-TX")]
    con.executemany(
        "INSERT INTO document_rows VALUES (?, ?, ?)",
        [(d, j, "removed" if j == "US-TX" else "active") for d, j in held],
    )
    con.executemany(
        "INSERT INTO documents VALUES (?, NULL, ?, 'active')",
        [("d1", "A covered entity must train its workforce."), ("d2", "New York law says so.")],
    )
    questions = pa.table(
        {
            "question_id": ["Q1", "Q2", "Q3"],
            "question": [
                "Under Texas medical records privacy law, how soon must staff be trained?",
                "Under New York law, how soon must staff be trained?",
                "Our Texas clinic hired staff. How soon must they be trained?",
            ],
        }
    )
    assert absent_names(con, questions, vocabulary=set()) == {
        "Q1": ["Texas medical records privacy law"]
    }


def test_the_provisions_a_question_cites():
    cited = question_citations(
        "Under 42 CFR 482.13 and 5 U.S.C. 552a(i), and per NIST SP 800-63B and OMB M-17-12, "
        "what applies? Call 1-800-555-1212."
    )
    assert list(cited) == ["42 CFR 482.13", "5 U.S.C. 552a(i)", "NIST SP 800-63B", "M-17-12"]
    assert question_citations("What does 14 NYCRR Part 527 list?").keys() == {"14 NYCRR Part 527"}
    assert question_citations("What must a covered entity do within 60 days?") == {}


def test_a_provision_no_document_is_or_mentions_is_absent():
    """A section is held under any of the usual spellings of its citation, a part when any of
    its sections is; a provision the corpus only lacks rejects every candidate."""
    con = duckdb.connect()
    con.execute("CREATE TABLE documents (citation VARCHAR, text VARCHAR, status VARCHAR)")
    con.executemany(
        "INSERT INTO documents VALUES (?, ?, ?)",
        [
            ("45 CFR § 164.404", "A covered entity shall notify each individual.", "active"),
            ("NIST SP 800-53 IA-5", "See SP 800-63-3 for authenticators.", "active"),
            ("42 CFR § 482.13", "Restraint may only be used ...", "removed"),
        ],
    )
    questions = pa.table(
        {
            "question_id": ["Q1", "Q2", "Q3", "Q4", "Q5"],
            "question": [
                "Under 45 C.F.R. § 164.404(b), how fast must we notify?",
                "Does 45 CFR Part 164 apply to us?",
                "Under 42 CFR 482.13, who does the face-to-face after a restraint?",
                "What password length does NIST 800-63B require, and does NIST 800-63 apply?",
                "What must OMB M-17-12 plans include?",
            ],
        }
    )
    assert absent_names(con, questions, vocabulary={"omb", "nist"}) == {
        "Q3": ["42 CFR 482.13"],
        "Q4": ["NIST 800-63B"],
        "Q5": ["M-17-12"],
    }
