"""Candidates out of their question's scope are rejected whichever backend judged them: every
candidate of a question naming a law the corpus never mentions, and a quote from the law of a
state the question does not name."""

from __future__ import annotations

import duckdb
import pyarrow as pa

from groundwork.verify.jurisdictions import named_states, other_state
from groundwork.verify.scope import out_of_scope, with_rejections
from schemas.verifications import VERIFICATIONS_SCHEMA


def test_the_states_a_question_names():
    assert named_states("How much can a D.C. therapist charge per page?") == {"DC"}
    assert named_states("A patient from Pennsylvania at a NY state hospital") == {"PA", "NY"}
    assert named_states("Our Washington, DC office") == {"DC"}
    # codes that read as other things are no state: an ID card, the VA hospital, OR
    assert named_states("Does the VA hospital need an ID card, OR a form?") == set()
    assert named_states("What does HIPAA require?") == set()


def test_a_quote_of_another_state_is_out_of_scope_and_federal_law_is_not():
    assert other_state({"DC"}, "US-NY") == "the question asks about DC; the quote is the law of NY"
    assert other_state({"DC"}, "US-DC") is None
    assert other_state({"DC"}, "US-Federal") is None
    assert other_state(set(), "US-NY") is None


def test_out_of_scope_candidates_are_rejected_with_their_reason():
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE documents (doc_id VARCHAR, citation VARCHAR, text VARCHAR, status VARCHAR)"
    )
    con.execute(
        "INSERT INTO documents VALUES ('d', NULL, 'protected health information', 'active')"
    )
    pairs = pa.table(
        {
            "question_id": ["Q1", "Q1", "Q2", "Q2", "Q3"],
            "question": ["May a D.C. clinic charge for copies?"] * 2
            + ["Under the GDPR, must we notify?"] * 2
            + ["Is PHI covered?"],
            "requirement_id": ["R1", "R2", "R3", "R4", "R5"],
            "jurisdiction": ["US-NY", "US-Federal", "US-DC", "US-Federal", "US-NY"],
        }
    )
    reasons = out_of_scope(con, pairs, vocabulary=set())
    assert reasons == {
        ("Q1", "R1"): "the question asks about DC; the quote is the law of NY",
        ("Q2", "R3"): "the question names GDPR, which no document of the corpus mentions",
        ("Q2", "R4"): "the question names GDPR, which no document of the corpus mentions",
    }
    base = dict.fromkeys(VERIFICATIONS_SCHEMA.names)
    rows = [
        {**base, "question_id": q, "requirement_id": r, "verified": True, "rationale": "ok"}
        for q, r in [("Q1", "R1"), ("Q1", "R2")]
    ]
    judged = with_rejections(pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA), reasons)
    first, second = judged.to_pylist()
    assert not first["verified"] and first["rejection_reason"] == "does_not_address_question"
    assert first["rationale"] == "the question asks about DC; the quote is the law of NY; ok"
    assert second["verified"] and second["rejection_reason"] is None
