"""What a published run leaves beside its tables: answers.md, audit_trail.json and report.html,
replaced whole, and the Data Docs job started in the background."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb

from groundwork.answers_markdown import answers_markdown
from groundwork.report.write import write_report
from groundwork.sqlfiles import sql_text
from groundwork.warehouse import Warehouse


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


def started_data_docs(warehouse: Warehouse, run_id: str) -> Path:
    """Start the run's Data Docs (groundwork/quality/data_docs.py) in a background process; its
    log's path.

    Background, after the publish decision: Great Expectations takes 7 s to import and, on the
    94,622-document bench corpus, as long again to validate, which a nightly run should not wait
    for. The job waits for the run lock, so it reads the tables once this run has let go of them.
    """
    folder = warehouse.root / "reports" / run_id
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "data_docs.log"
    with log.open("w") as out:
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "groundwork.quality.data_docs",
                str(warehouse.root.resolve()),
                run_id,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # outlives the run's process, and its Ctrl-C
        )
    return log
