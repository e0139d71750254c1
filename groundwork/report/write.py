"""Writing a run's report file, whole or not at all, and the changes file it links to."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import duckdb

from groundwork.export.changes import changes_markdown
from groundwork.report.data import report_tables
from groundwork.report.provenance import Files
from groundwork.report.render import report_html
from groundwork.warehouse.comparisons import changed_rows
from groundwork.warehouse.sqlfiles import Sql
from groundwork.warehouse.store import Warehouse

CHANGES = "changes.md"


def default_path(warehouse: Warehouse, run_id: str) -> Path:
    """Where a run's report lives: beside its answers.md and audit_trail.json."""
    return run_folder(warehouse, run_id) / "report.html"


def run_folder(warehouse: Warehouse, run_id: str) -> Path:
    """The folder of a run's reports: answers.md, audit_trail.json, report.html, Data Docs."""
    return warehouse.root / "reports" / run_id


def written_changes(
    con: duckdb.DuckDBPyConnection,
    folder: Path,
    run_a: str,
    run_b: str,
    comparisons: Mapping[str, Sql] | None = None,
) -> Path:
    """changes.md in the run's folder: what changed since the previous published run, as
    `groundwork diff` prints it in Markdown; from the comparisons of the two runs a publication
    has already made of the same two runs (`comparisons`, by the name of the view each stands
    for: comparisons.kept_comparisons), else made here."""
    records = [
        [dict(zip(columns, row, strict=True)) for row in rows]
        for columns, rows in changed_rows(con, run_a, run_b, comparisons).values()
    ]
    path = folder / CHANGES
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.tmp")
    partial.write_text(changes_markdown(run_a, run_b, *records), encoding="utf-8")
    os.replace(partial, path)
    return path


def _prefix(folder: Path, page: Path) -> str:
    """The run folder as a link prefix from the page's own folder ('' beside it)."""
    relative = os.path.relpath(folder.resolve(), page.resolve().parent)
    return "" if relative == "." else Path(relative).as_posix() + "/"


def write_report(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    path: Path,
    *copies: Path,
    comparisons: Mapping[str, Sql] | None = None,
) -> Path:
    """Render the run's report to `path` (and to each of `copies`, whose links to the run's
    other files start from their own folder) through a temporary file and a rename, so a
    reader never opens half a report. Writes changes.md first where there is an earlier
    published run and the run's folder has none (from `comparisons`, see `written_changes`)."""
    tables = report_tables(con, warehouse, run_id)
    folder = run_folder(warehouse, run_id)
    changes = None
    if tables.previous_run:
        if not (folder / CHANGES).exists():
            written_changes(con, folder, tables.previous_run, run_id, comparisons)
        changes = CHANGES
    marker = "\x00files\x00/"  # never in corpus text, which the page escapes
    page = report_html(tables, Files(marker, changes))
    for target in (path, *copies):
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.tmp")
        partial.write_text(page.replace(marker, _prefix(folder, target)), encoding="utf-8")
        os.replace(partial, target)
    return path
