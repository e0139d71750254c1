"""Stage `publish`: move the current_* views to this run, only when every hard check passed.

A run that fails a hard check is recorded as failed; its Parquet files stay (queryable through the
all-runs views, marked by `runs.status`), and the published run the views point at is untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.answers_markdown import answers_markdown
from groundwork.report.write import write_report
from groundwork.sqlfiles import run_script, sql_text
from groundwork.warehouse import PARQUET_TABLES, Warehouse, refresh_views

ANSWER_TABLES = ("answers", "statements", "citations")


def failed_hard_checks(results: list[dict]) -> list[dict]:
    """The hard checks that did not pass."""
    return [r for r in results if r["severity"] == "hard" and not r["passed"]]


def failed_answer_checks(results: list[dict]) -> list[dict]:
    """Failed hard checks on the composed answers: the ones a recomposition may mend."""
    return [r for r in failed_hard_checks(results) if r["table_name"] in ANSWER_TABLES]


def _records(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def write_reports(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str) -> Path:
    """answers.md, audit_trail.json and report.html of the published run, in reports/<run>/
    and as latest."""
    folder = warehouse.root / "reports" / run_id
    folder.mkdir(parents=True, exist_ok=True)
    answers = _records(con, sql_text("answers/report_answers"))
    sources = _records(con, sql_text("answers/report_sources"))
    audit = _records(con, sql_text("answers/audit_trail"))
    (folder / "answers.md").write_text(answers_markdown(run_id, answers, sources))
    (folder / "audit_trail.json").write_text(json.dumps(audit, indent=1, default=str))
    write_report(con, warehouse, run_id, folder / "report.html")
    for name in ("answers.md", "audit_trail.json", "report.html"):  # replaced whole
        shutil.copyfile(folder / name, warehouse.root / f".{name}.tmp")
        os.replace(warehouse.root / f".{name}.tmp", warehouse.root / name)
    return folder


@task(name="publish", cache_policy=NO_CACHE)
def publish_stage(
    warehouse: Warehouse, run_id: str, results: list[dict], data_docs: bool = True
) -> bool:
    """Publish the run if its hard checks passed; refresh views either way. True if published.
    Then, the decision committed, start the run's Data Docs (unless `data_docs` is off)."""
    publish = not failed_hard_checks(results)
    with warehouse.connect() as con:
        con.execute("BEGIN TRANSACTION")
        if publish:
            run_script(con, "runs/publish", {"run_id": run_id, "tables": list(PARQUET_TABLES)})
        refresh_views(con, warehouse)
        con.execute("COMMIT")
        if publish:
            write_reports(con, warehouse, run_id)
    if data_docs:
        started_data_docs(warehouse, run_id)
    return publish


def started_data_docs(warehouse: Warehouse, run_id: str) -> Path:
    """Start the run's Data Docs (tasks/data_docs.py) in a background process; its log's path.

    Background, after the publish decision: Great Expectations takes 7 s to import and, on the
    94,622-document bench corpus, as long again to validate, which a nightly run should not wait
    for. The job waits for the run lock, so it reads the tables once this run has let go of them.
    """
    folder = warehouse.root / "reports" / run_id
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "data_docs.log"
    with log.open("w") as out:
        subprocess.Popen(
            [sys.executable, "-m", "tasks.data_docs", str(warehouse.root.resolve()), run_id],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # outlives the run's process, and its Ctrl-C
        )
    return log
