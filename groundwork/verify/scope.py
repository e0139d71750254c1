"""What a question is about beyond its words, held against every candidate whichever backend
judged it: a question naming a law the corpus never mentions (absent.py) has no answer in it,
and a quote from the law of a state the question does not name answers a question about
another (jurisdictions.py). Such a candidate is rejected as not addressing the question, the
reason first in its rationale; a run, `groundwork ask` and training.gate judge alike.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from groundwork.verify.absent import absent_names, absent_reason
from groundwork.verify.jurisdictions import named_states, other_state

if TYPE_CHECKING:
    from groundwork.verify import Verifier


def out_of_scope(
    con: duckdb.DuckDBPyConnection, pairs: pa.Table, vocabulary: Container[str]
) -> dict[tuple[str, str], str]:
    """(question, requirement) -> why the candidate cannot answer the question, for the
    candidate pairs (sql/answers/candidate_pairs.sql) that cannot; `vocabulary` spares scans
    for the acronyms the retrieval index knows."""
    absent = absent_names(con, pairs, vocabulary)
    states: dict[str, set[str]] = {}
    reasons = {}
    for row in pairs.select(
        ["question_id", "question", "requirement_id", "jurisdiction"]
    ).to_pylist():
        qid = row["question_id"]
        if qid in absent:
            reasons[(qid, row["requirement_id"])] = absent_reason(absent[qid])
            continue
        if qid not in states:
            states[qid] = named_states(row["question"])
        why = other_state(states[qid], row["jurisdiction"])
        if why:
            reasons[(qid, row["requirement_id"])] = why
    return reasons


def with_rejections(verifications: pa.Table, reasons: dict[tuple[str, str], str]) -> pa.Table:
    """The verification rows, each candidate in `reasons` rejected as not addressing its
    question, the reason first in its rationale."""
    if not reasons:
        return verifications
    rows = verifications.to_pylist()
    for row in rows:
        reason = reasons.get((row["question_id"], row["requirement_id"]))
        if reason:
            row["verified"] = False
            row["rejection_reason"] = "does_not_address_question"
            row["rationale"] = f"{reason}; {row['rationale']}" if row["rationale"] else reason
    return pa.Table.from_pylist(rows, schema=verifications.schema)


def verdicts(
    con: duckdb.DuckDBPyConnection, backend: Verifier, pairs: pa.Table, vocabulary: Container[str]
) -> pa.Table:
    """The backend's verdict on every candidate pair, the candidates out of their question's
    scope rejected: what a run and `groundwork ask` both judge."""
    return with_rejections(backend.verifications(pairs), out_of_scope(con, pairs, vocabulary))
