"""Writing a run's report file, whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from groundwork.report.data import report_tables
from groundwork.report.render import report_html
from groundwork.warehouse import Warehouse


def default_path(warehouse: Warehouse, run_id: str) -> Path:
    """Where a run's report lives: beside its answers.md and audit_trail.json."""
    return warehouse.root / "reports" / run_id / "report.html"


def write_report(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str, path: Path
) -> Path:
    """Render the run's report to `path` through a temporary file and a rename, so a reader
    never opens half a report."""
    page = report_html(report_tables(con, warehouse, run_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.tmp")
    partial.write_text(page, encoding="utf-8")
    os.replace(partial, path)
    return path
