"""Reading a warehouse from the terminal: `sql`, `runs`, `diff` and `ask`, with the output
formats (table, CSV, JSON) they share."""

from __future__ import annotations

import csv
import json
import re
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


class AnswerFormat(StrEnum):
    markdown = "markdown"
    json = "json"
    csv = "csv"


FormatOption = Annotated[
    OutputFormat | None,
    typer.Option(
        "--format",
        "-f",
        help="output format (default: table on a terminal, csv when piped or redirected)",
        show_default=False,
    ),
]
# A column whose values are never cut or folded in a table: identifiers, copied into the next query
_WHOLE = re.compile(r"(^|_)(id|ids|key|hash)$")


def _chosen(fmt: OutputFormat | None) -> OutputFormat:
    """The format asked for; else a table for a person at a terminal and CSV for a program."""
    if fmt is not None:
        return fmt
    return OutputFormat.table if sys.stdout.isatty() else OutputFormat.csv


def sql(
    statement: Annotated[str, typer.Argument(help="a SQL query (read-only)")],
    warehouse: WarehouseOption = None,
    fmt: FormatOption = None,
) -> None:
    """Query the warehouse read-only: tables, current_* views and all-runs views. A query reads
    the warehouse's own files and nothing else, and writes nothing."""
    import duckdb

    from groundwork.warehouse.errors import WarehouseUnusable, missing_file
    from groundwork.warehouse.sandbox import NotAQuery, read_statements

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


def _print_rows(
    columns: list[str], rows: list[tuple], fmt: OutputFormat | None, title: str = ""
) -> None:
    """Rows as a terminal table, CSV or JSON."""
    fmt = _chosen(fmt)
    if fmt is OutputFormat.csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
    elif fmt is OutputFormat.json:
        records = [dict(zip(columns, row, strict=True)) for row in rows]
        sys.stdout.write(json.dumps(records, default=str, ensure_ascii=False, indent=1) + "\n")
    else:
        cells = [["" if v is None else str(v) for v in row] for row in rows]
        out.print(_table(columns, cells, title))


def _table(columns: list[str], rows: list[list[str]], title: str) -> Table:
    """A terminal table that cuts nothing: identifiers keep their whole width, other values fold.
    Too wide for the terminal even so, it turns on its side: one block of `column  value` lines
    per row, as psql's expanded display does."""
    whole = [bool(_WHOLE.search(c)) for c in columns]
    widths = [max([len(c), *(len(r[i]) for r in rows)]) for i, c in enumerate(columns)]
    least = sum(w if keep else min(w, 12) for w, keep in zip(widths, whole, strict=True))
    if least + 3 * len(columns) + 1 <= out.width:
        table = Table(title=title or None)
        for column, width, keep in zip(columns, widths, whole, strict=True):
            table.add_column(
                column, no_wrap=keep, min_width=width if keep else min(width, 12), overflow="fold"
            )
        for row in rows:
            table.add_row(*row)
        return table
    table = Table(title=title or None, show_header=False, box=None)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for n, row in enumerate(rows, 1):
        table.add_row(f"-[ row {n} ]-", "", end_section=False)
        for column, value in zip(columns, row, strict=True):
            table.add_row(column, value)
    return table


def runs(
    warehouse: WarehouseOption = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="the newest N runs")] = 20,
    status: Annotated[
        str | None,
        typer.Option(help="only runs of this status: published, failed, abandoned, unchanged, ..."),
    ] = None,
    fmt: FormatOption = None,
) -> None:
    """List the warehouse's runs, newest first: status, start, duration, what each produced,
    and the error of those that failed. Every attempt is there, failed and retried ones too."""
    from groundwork.warehouse.sqlfiles import query

    wh = existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        cursor = query(con, "runs/listing", {"limit": limit, "status": status})
        columns = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
    _print_rows(columns, rows, fmt)


class DiffFormat(StrEnum):
    text = "text"
    markdown = "markdown"
    table = "table"
    csv = "csv"
    json = "json"


def diff(
    run_a: Annotated[str | None, typer.Argument(help="the earlier run")] = None,
    run_b: Annotated[str | None, typer.Argument(help="the later run")] = None,
    warehouse: WarehouseOption = None,
    fmt: Annotated[
        DiffFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="text (each changed quote once, the words that changed marked; the default on "
            "a terminal), markdown (the same, ~~struck~~ and **new**; the default when piped), "
            "table, csv or json (the rows)",
            show_default=False,
        ),
    ] = None,
) -> None:
    """What changed between two runs (default: the two latest published): requirements added,
    changed (same place, new text) and retired; answers whose result, confidence or citations
    changed. The same as the SQL macros requirement_changes(a, b) and answer_changes(a, b)."""
    from groundwork.export.changes import changes_markdown, changes_text
    from groundwork.warehouse.comparisons import changed_rows
    from groundwork.warehouse.sqlfiles import query

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
        reports = changed_rows(con, run_a, run_b)
    records = {k: [dict(zip(c, r, strict=True)) for r in rows] for k, (c, rows) in reports.items()}
    fmt = fmt or (DiffFormat.text if sys.stdout.isatty() else DiffFormat.markdown)
    if fmt is DiffFormat.json:
        payload = {"run_a": run_a, "run_b": run_b, **records}
        sys.stdout.write(json.dumps(payload, default=str, ensure_ascii=False, indent=1) + "\n")
    elif fmt is DiffFormat.markdown:
        sys.stdout.write(changes_markdown(run_a, run_b, *records.values()))
    elif fmt is DiffFormat.text:
        out.print(changes_text(run_a, run_b, *records.values()), highlight=False)
    else:
        for name, (columns, rows) in reports.items():
            title = f"{name.replace('_', ' ')}: {run_a} → {run_b}"
            _print_rows(columns, rows, OutputFormat(fmt.value), title)


def _valid_question(text: str) -> str:
    """The question, if it is one the pipeline would take from a questions file; else a usage
    error in one line (the same rules: schemas/questions.py)."""
    from pydantic import ValidationError

    from schemas.questions import Question

    try:
        Question(question_id="ASK", question=text)
    except ValidationError as exc:
        reasons = "; ".join(e["msg"] for e in exc.errors())
        raise typer.BadParameter(reasons.lower()) from exc
    return text


def ask(
    question: Annotated[
        str, typer.Argument(help="a compliance question", callback=_valid_question)
    ],
    warehouse: WarehouseOption = None,
    top_k: Annotated[int, typer.Option(min=1, help="chunks to retrieve")] = 10,
    fmt: Annotated[
        AnswerFormat,
        typer.Option(
            "--format",
            "-f",
            help="markdown (the answer as answers.md shows it), json (the answer, its statements "
            "and sources) or csv (one row per statement)",
        ),
    ] = AnswerFormat.markdown,
) -> None:
    """Answer one question from the published warehouse, with verified citations only."""
    from groundwork.ask import NothingPublished, asked
    from groundwork.export.answers_markdown import answers_markdown

    wh = existing_warehouse(warehouse)
    try:
        answer, statements, sources = asked(wh, question, top_k)
    except NothingPublished as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    if fmt is AnswerFormat.json:
        payload = {**answer, "statements": statements, "sources": sources}
        sys.stdout.write(json.dumps(payload, default=str, ensure_ascii=False, indent=1) + "\n")
    elif fmt is AnswerFormat.csv:
        columns, rows = _statement_rows(answer, statements)
        _print_rows(columns, rows, OutputFormat.csv)
    else:
        sys.stdout.write(answers_markdown("ask", [answer], sources))


def _statement_rows(answer: dict, statements: list[dict]) -> tuple[list[str], list[tuple]]:
    """The answer as CSV rows, one per statement with the answer's result beside it; an answer
    without statements (NO_AUTHORITATIVE_EVIDENCE) is one row that says what is missing."""
    columns = ["question", "result", "grounding_confidence", "ordinal", "section", "statement"]
    head = (answer["question"], answer["result"], answer["grounding_confidence"])
    if not statements:
        return columns, [(*head, None, None, answer["missing_evidence"] or answer["final_answer"])]
    return columns, [(*head, s["ordinal"], s["section"], s["text"]) for s in statements]
