"""Publishing a run: the views moved to it, and what it leaves beside its tables (answers.md,
audit_trail.json, report.html and the snapshot, replaced whole), then the Data Docs job started
in the background."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import duckdb

from groundwork.export.answers_markdown import GateVerdicts, answers_markdown
from groundwork.report.write import write_report
from groundwork.runtime.failpoints import failpoint
from groundwork.warehouse.comparisons import kept_comparisons
from groundwork.warehouse.parquet import PARQUET_TABLES
from groundwork.warehouse.snapshot import built_snapshot, snapshot_path, stale_snapshot
from groundwork.warehouse.snapshot_update import updated_snapshot
from groundwork.warehouse.sqlfiles import Sql, literal_sql, query, run_script, sql_text
from groundwork.warehouse.store import Warehouse
from groundwork.warehouse.views import refresh_views


def _records(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def published(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str) -> None:
    """Publish a run that passed review: move the current_* views to it, then write what a
    publication leaves beside its tables (its reports, and the snapshot dashboards read).

    The views move in one transaction, and the files are written after it, because they read
    the published views. Each file is written beside its final name and they are all renamed
    into place at the end, the snapshot last. If writing them fails (a full disk, say), the
    views move back to the run published before, in a second transaction: a run is published
    with its reports and snapshot, or not at all. A process killed after the first transaction
    cannot move them back: the next run finds the snapshot behind the publication and writes
    the files again (`repaired_publication`).
    """
    run_script(con, "runs/remember_publications")
    _moved(con, warehouse, "runs/publish", {"run_id": run_id, "tables": list(PARQUET_TABLES)})
    try:
        failpoint("publish")
        comparisons = kept_comparisons(con)  # for both changes.md and the snapshot
        swaps = [*prepared_reports(con, warehouse, run_id, comparisons)]
        snapshot = updated_snapshot(con, warehouse, run_id, comparisons)
        swaps.append((snapshot, snapshot_path(warehouse)))
    except BaseException:
        warehouse.discard_leftovers()  # the half-written files: on a full disk, room to undo
        _moved(con, warehouse, "runs/unpublish", {"run_id": run_id})
        raise
    for written, final in swaps:
        os.replace(written, final)


def repaired_publication(warehouse: Warehouse) -> str | None:
    """The published run, if its reports and snapshot had to be written again (a run killed
    between its publication and their renames); None when they are whole."""
    with warehouse.connect(read_only=True) as con:
        row = query(con, "runs/published").fetchone()
    if row is None or not stale_snapshot(warehouse, row[0]):
        return None
    with warehouse.connect() as con:
        swaps = [*prepared_reports(con, warehouse, row[0])]
        swaps.append((built_snapshot(con, warehouse, row[0]), snapshot_path(warehouse)))
    for written, final in swaps:
        os.replace(written, final)
    return row[0]


def published_verdicts(con: duckdb.DuckDBPyConnection) -> GateVerdicts:
    """The published run's gate verdicts answers.md says in words: on what its answers cite,
    the closest candidates turned down, and each question's best gate-model score (the same
    queries as the HTML report's, on the current_* views)."""
    current = {t: Sql(f"current_{t}") for t in ("citations", "verifications", "requirements")}
    best = con.execute(literal_sql("report/best_scores", **current)).fetchall()
    return GateVerdicts(
        cited=_records(con, literal_sql("report/citations", **current)),
        rejected=_records(con, literal_sql("report/closest_rejected", **current)),
        best=dict(best),
    )


def _moved(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, script: str, params: dict) -> None:
    """Run a script that moves the publication, and refresh the views, in one transaction."""
    con.execute("BEGIN TRANSACTION")
    run_script(con, script, params)
    refresh_views(con, warehouse)
    con.execute("COMMIT")


def prepared_reports(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    comparisons: Mapping[str, Sql] | None = None,
) -> list[tuple[Path, Path]]:
    """Write answers.md, audit_trail.json and report.html of the published run into
    reports/<run>/, and a copy of each beside the warehouse's latest one; the (copy, latest)
    pairs, for the caller to rename into place. `comparisons`: those with the run published
    before, made once (groundwork/warehouse/comparisons.py)."""
    folder = warehouse.root / "reports" / run_id
    folder.mkdir(parents=True, exist_ok=True)
    answers = _records(con, sql_text("answers/report_answers"))
    sources = _records(con, sql_text("answers/report_sources"))
    audit = _records(con, sql_text("answers/audit_trail"))
    markdown = answers_markdown(run_id, answers, sources, published_verdicts(con))
    (folder / "answers.md").write_text(markdown)
    (folder / "audit_trail.json").write_text(json.dumps(audit, indent=1, default=str))
    swaps = []
    for name in ("answers.md", "audit_trail.json"):  # replaced whole
        copy = warehouse.root / f".{name}.tmp"
        shutil.copyfile(folder / name, copy)
        swaps.append((copy, warehouse.root / name))
    # the latest report's copy links to the run's files from the warehouse's folder
    copy = warehouse.root / ".report.html.tmp"
    write_report(con, warehouse, run_id, folder / "report.html", copy, comparisons=comparisons)
    return [*swaps, (copy, warehouse.root / "report.html")]


def started_data_docs(warehouse: Warehouse, run_id: str) -> Path:
    """Start the run's Data Docs (groundwork/quality/data_docs.py) in a background process; its
    log's path.

    Background, after the publish decision: Great Expectations takes seconds to import and, on the
    bench corpus, as long again to validate (BENCHMARKS.md, "Great Expectations Data Docs"),
    which a nightly run should not wait for. The job waits for the run lock, so it reads the
    tables once this run has let go of them.
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
