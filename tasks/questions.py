"""Stage `questions`: the run's question set, valid rows as a table, malformed rows rejected.

With no question file the table is empty and every later answer stage writes empty tables, so the
register-only run and the question run share one flow and one set of checks.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pyarrow as pa
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.questions import LoadedQuestions, loaded_questions
from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.parquet import write_run_table
from groundwork.warehouse.sqlfiles import run_script, sql_text
from groundwork.warehouse.store import Warehouse
from schemas.contract import checked
from schemas.questions import ARROW_SCHEMA, Questions

log = logging.getLogger("groundwork")


def questions(loaded: LoadedQuestions) -> pa.Table:
    """The questions table of a loaded question set."""
    rows = [q.model_dump() for q in loaded.questions]
    return checked(pa.Table.from_pylist(rows, schema=ARROW_SCHEMA), Questions, "questions")


@task(name="questions", cache_policy=NO_CACHE)
def questions_stage(warehouse: Warehouse, run_id: str, path: Path | None) -> tuple[int, int]:
    """Load and record the run's questions; returns (questions, rejected rows). A questions file
    that does not exist fails the stage: it is a setting to fix, not a record to skip."""
    if path is not None and not path.is_file():
        raise FileNotFoundError(f"questions file {path} does not exist")
    bar = stage_progress("questions", None, "questions")
    loaded = loaded_questions(path) if path else LoadedQuestions()
    for r in loaded.rejections:
        where = f"{r['path']} line {r['line']}" if r["line"] else r["path"]
        log.warning("rejected question %s: %s", where, r["reason"])
    table = questions(loaded)
    write_run_table(warehouse, "questions", run_id, table)
    with warehouse.connect() as con:
        run_script(con, "answers/clear_rejected_questions", {"run_id": run_id})
        if loaded.rejections:
            con.executemany(
                sql_text("answers/record_rejected_question"),
                [{"run_id": run_id, **r} for r in loaded.rejections],
            )
    bar.done(table.num_rows)
    return table.num_rows, len(loaded.rejections)
