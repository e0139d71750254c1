"""Reading a published warehouse from the terminal: `sql`, `diff` and `ask`, with the output
formats (table, CSV, JSON) they share."""

from __future__ import annotations

import csv
import json
import sys
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from groundwork.cli.common import (
    EXIT_FAILED,
    EXIT_USAGE,
    WarehouseOption,
    err,
    existing_warehouse,
    out,
)


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def sql(
    statement: Annotated[str, typer.Argument(help="a SQL query (read-only)")],
    warehouse: WarehouseOption = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="output format")] = (
        OutputFormat.table
    ),
) -> None:
    """Query the warehouse read-only: tables, current_* views and all-runs views. A query reads
    the warehouse's own files and nothing else, and writes nothing."""
    import duckdb

    from groundwork.warehouse import NotAQuery, WarehouseUnusable, missing_file, read_statements

    wh = existing_warehouse(warehouse)
    try:
        with wh.sandboxed() as con:
            read_statements(con, statement)
            cursor = con.execute(statement)
            columns = [d[0] for d in cursor.description] if cursor.description else []
            rows = cursor.fetchall() if columns else []
    except (duckdb.Error, NotAQuery, WarehouseUnusable) as exc:
        err.print(f"[red]error:[/] {missing_file(exc) or exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    _print_rows(columns, rows, fmt)


def _print_rows(columns: list[str], rows: list[tuple], fmt: OutputFormat, title: str = "") -> None:
    """Rows as a terminal table, CSV or JSON."""
    if fmt is OutputFormat.csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
    elif fmt is OutputFormat.json:
        records = [dict(zip(columns, row, strict=True)) for row in rows]
        sys.stdout.write(json.dumps(records, default=str, ensure_ascii=False, indent=1) + "\n")
    else:
        table = Table(*columns, title=title or None)
        for row in rows:
            table.add_row(*("" if v is None else str(v) for v in row))
        out.print(table)


def diff(
    run_a: Annotated[str | None, typer.Argument(help="the earlier run")] = None,
    run_b: Annotated[str | None, typer.Argument(help="the later run")] = None,
    warehouse: WarehouseOption = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="output format")] = (
        OutputFormat.table
    ),
) -> None:
    """What changed between two runs (default: the two latest published): requirements added,
    changed (same place, new text) and retired; answers whose result, confidence or citations
    changed. The same as the SQL macros requirement_changes(a, b) and answer_changes(a, b)."""
    from groundwork.sqlfiles import query

    wh = existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        if run_a is None or run_b is None:
            latest = [r for (r,) in query(con, "diff/runs_to_compare").fetchall()]
            if len(latest) < 2:
                err.print("[red]error:[/] fewer than two published runs: name the runs to compare")
                raise typer.Exit(EXIT_USAGE)
            run_b, run_a = latest
        for run in (run_a, run_b):
            if not query(con, "diff/known_run", {"run_id": run}).fetchone()[0]:
                err.print(f"[red]error:[/] no run {run} with tables in {wh.root}")
                raise typer.Exit(EXIT_USAGE)
        reports = {}
        for name in ("requirement_changes", "answer_changes"):
            cursor = query(con, f"diff/{name}", {"run_a": run_a, "run_b": run_b})
            reports[name] = ([d[0] for d in cursor.description], cursor.fetchall())
    if fmt is OutputFormat.json:
        payload = {
            "run_a": run_a,
            "run_b": run_b,
            **{k: [dict(zip(c, r, strict=True)) for r in rows] for k, (c, rows) in reports.items()},
        }
        sys.stdout.write(json.dumps(payload, default=str, ensure_ascii=False, indent=1) + "\n")
        return
    for name, (columns, rows) in reports.items():
        _print_rows(columns, rows, fmt, f"{name.replace('_', ' ')}: {run_a} → {run_b}")


def ask(
    question: Annotated[str, typer.Argument(help="a compliance question")],
    warehouse: WarehouseOption = None,
    top_k: Annotated[int, typer.Option(help="chunks to retrieve")] = 10,
    fmt: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="table (Markdown) or json")
    ] = OutputFormat.table,
) -> None:
    """Answer one question from the published warehouse, with verified citations only."""
    from groundwork.answers_markdown import answers_markdown
    from groundwork.ask import NothingPublished, asked

    wh = existing_warehouse(warehouse)
    try:
        answer, statements, sources = asked(wh, question, top_k)
    except NothingPublished as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    if fmt is OutputFormat.json:
        payload = {**answer, "statements": statements, "sources": sources}
        sys.stdout.write(json.dumps(payload, default=str, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(answers_markdown("ask", [answer], sources))
