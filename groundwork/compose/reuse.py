"""Answers copied, not composed again: a question whose inputs (the question, its verified
evidence, its rejection counts) equal those of the reused run keeps that run's answer, and is
not sent to a model again."""

from __future__ import annotations

import hashlib
import json

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from groundwork.verify.absent import NAMED_PATTERN
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import literal_sql
from groundwork.warehouse.store import Warehouse


def compose_inputs(warehouse: Warehouse, run_id: str) -> tuple[pa.Table, pa.Table, pa.Table]:
    """What composition reads of a run: questions, verified evidence, rejection counts."""
    parts = run_parts(warehouse, run_id, "questions", "verifications", "requirements")
    with warehouse.connect(read_only=True) as con:
        return tuple(  # type: ignore[return-value]
            con.execute(
                literal_sql(f"answers/{name}", **parts, named=NAMED_PATTERN)
            ).to_arrow_table()
            for name in ("questions", "verified_evidence", "rejection_counts")
        )


def question_keys(questions: pa.Table, evidence: pa.Table, rejected: pa.Table) -> dict[str, str]:
    """A digest per question of everything its answer is composed from: the question, its
    verified evidence (IDs, quotes, ranks) and its rejection counts."""
    inputs: dict[str, list] = {q["question_id"]: [q, [], []] for q in questions.to_pylist()}
    for position, table in ((1, evidence), (2, rejected)):
        for row in table.to_pylist():
            if row["question_id"] in inputs:
                inputs[row["question_id"]][position].append(row)
    return {
        qid: hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
        for qid, parts in inputs.items()
    }


def unchanged_questions(
    warehouse: Warehouse, inputs: tuple[pa.Table, pa.Table, pa.Table], reused: str | None
) -> set[str]:
    """Questions whose answer inputs (this run's `compose_inputs`) equal those of the `reused`
    run (same config and code): their answers are copied from it rather than composed again
    (nor sent to a model)."""
    if reused is None or inputs[0].num_rows == 0 or not warehouse.parts("answers", reused):
        return set()
    now = question_keys(*inputs)
    before = question_keys(*compose_inputs(warehouse, reused))
    return {qid for qid, key in now.items() if before.get(qid) == key}


def only_questions(table: pa.Table, questions: set[str], keep: bool) -> pa.Table:
    """The rows of `table` whose question is (keep) or is not (not keep) in `questions`."""
    inside = pc.is_in(table.column("question_id"), pa.array(sorted(questions), pa.string()))
    return table.filter(inside if keep else pc.invert(inside))


def copied_rows(
    warehouse: Warehouse, table: str, schema: pa.Schema, reused: str, copied: set[str]
) -> pa.Table:
    """The rows of the `reused` run's `table` that belong to the `copied` questions."""
    before = pq.read_table(warehouse.run_dir(table, reused), schema=schema)  # type: ignore[arg-type]
    return only_questions(before, copied, keep=True)
