"""Stage `answers`: every question's answer, its statements, citations, claims, claim numbers and
citation corrections, written by the configured composer (groundwork/compose/) from the run's
verified requirements; answers whose inputs equal the reused run's are copied from it."""

from __future__ import annotations

from collections import Counter

import pyarrow as pa
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.compose import composer
from groundwork.compose.draft import NO_EVIDENCE
from groundwork.compose.reuse import (
    compose_inputs,
    copied_rows,
    only_questions,
    unchanged_questions,
)
from groundwork.compose.tables import ANSWER_TABLES, answers
from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.parquet import write_run_table
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.contract import checked


@task(name="compose", cache_policy=NO_CACHE)
def compose_stage(
    warehouse: Warehouse, run_id: str, config: RunConfig, reused: str | None = None
) -> dict[str, int]:
    """Compose every answer from the run's verified requirements, copying those of questions
    whose inputs are as in the `reused` run; returns result counts and how many were copied."""
    bar = stage_progress("compose", None, "answers")
    inputs = compose_inputs(warehouse, run_id)
    questions, evidence, rejected = inputs
    copied = unchanged_questions(warehouse, inputs, reused)
    questions = only_questions(questions, copied, keep=False)
    with composer(config, warehouse, run_id, questions, evidence) as compose:
        tables = answers(questions, evidence, rejected, config.claims, compose)
    for name, schema, contract in ANSWER_TABLES:
        table = checked(tables[name], contract, name)
        if copied:
            before = copied_rows(warehouse, name, schema, reused, copied)  # type: ignore[arg-type]
            table = pa.concat_tables([before, table])
        write_run_table(warehouse, name, run_id, table)
        tables[name] = table
    results = Counter(tables["answers"].column("result").to_pylist())
    bar.done(tables["answers"].num_rows)
    return {
        "answered": results["ANSWERED"],
        "no_evidence": results[NO_EVIDENCE],
        "answers_copied": len(copied),
    }
