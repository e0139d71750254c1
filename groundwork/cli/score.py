"""`groundwork eval`: a run scored against a labelled question file; the scoring is the library's
(groundwork/quality/evaluation.py), this module reads the options and prints."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from groundwork.cli.common import (
    EXIT_USAGE,
    WarehouseOption,
    answered_run,
    err,
    existing_warehouse,
    out,
)

_RESULTS = {"ANSWERED": "answered", "NO_AUTHORITATIVE_EVIDENCE": "refused"}


def _share(count: int, of: int) -> str:
    return f"{count}/{of} {count / of:.0%}" if of else "-"


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


_LEGEND = (
    "in top 10: an expected document among the first 10 distinct documents retrieved; citing: "
    "answered, citing an expected document; citations: citations into an expected document; "
    "R@10, MAP@10: on labelled passages; refused: unanswerable questions refused"
)


def _summary_table(rows: list[dict], title: str) -> Table:
    """Counts and shares per group, then over all questions; R@10 and MAP@10 where some
    question's passages are labelled."""
    passages = rows[-1]["passage_labelled"] > 0
    table = Table(title=title, caption=_LEGEND)
    table.add_column("group", no_wrap=True)
    columns = ["in top 10", "answered", "citing", "citations"]
    columns += ["R@10", "MAP@10"] if passages else []
    for column in [*columns, "refused"]:
        table.add_column(column, overflow="fold")
    for row in rows:
        cells = [
            _share(row["document_in_top10"], row["answerable"]),
            _share(row["answered"], row["answerable"]),
            _share(row["answered_citing_expected"], row["answerable"]),
            _share(row["citations_into_expected"], row["citations"]),
        ]
        cells += [_figure(row["recall_at_10"]), _figure(row["map_at_10"])] if passages else []
        table.add_row(
            row["group"],
            *cells,
            _share(row["refused"], row["unanswerable"]),
            end_section=len(rows) > 1 and row is rows[-2],  # the groups, then all
        )
    return table


def _details_table(records: list[dict]) -> Table:
    """Each question's outcome, one row each, in the file's order: the rank of its first
    expected document among the distinct documents retrieved, and whether it went as labelled."""
    passages = any(r["passages"] for r in records)
    table = Table(title="per question")
    table.add_column("question_id", no_wrap=True)
    columns = ["group", "expected", "result", "doc rank", "citing"]
    columns += ["R@10", "AP@10"] if passages else []
    for column in [*columns, "ok"]:
        table.add_column(column, overflow="fold")
    for r in records:
        cells = [
            r["group"] or "",
            "answer" if r["answerable"] else "refusal",
            _RESULTS.get(r["result"], r["result"]),
            "-" if r["document_rank"] is None else str(r["document_rank"]),
            ("yes" if r["cites_expected"] else "no") if r["answerable"] else "-",
        ]
        cells += [_figure(r["recall"]), _figure(r["average_precision"])] if passages else []
        table.add_row(r["question_id"], *cells, "yes" if r["correct"] else "NO")
    return table


def evaluate(
    questions_file: Annotated[
        Path,
        typer.Argument(
            help="labelled questions: data/questions.yaml's format (expected, "
            "expected_sources) or data/plain-questions/*.jsonl's (answerable, answers)",
            exists=True,
            dir_okay=False,
        ),
    ],
    run_id: Annotated[
        str | None,
        typer.Option("--run", help="the run to score (default: the published run)"),
    ] = None,
    details: Annotated[
        bool, typer.Option("--details", help="also list each question's outcome")
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="print the scores as JSON (summary and each question)"),
    ] = False,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="also write the scores as JSON to this file", show_default=False
        ),
    ] = None,
    warehouse: WarehouseOption = None,
) -> None:
    """Score a run that answered a labelled question file (`groundwork run --questions FILE`).

    Answerable questions: an expected document among the first 10 distinct documents retrieved;
    answered citing an expected document; the share of citations into one; and, where passages
    are labelled (quotes), Recall@10 and MAP@10 on distinct passages. Unanswerable questions:
    refused (NO_AUTHORITATIVE_EVIDENCE). Per family or topic where the file gives one."""
    from groundwork.quality.evaluation import (
        not_in_run,
        question_scores,
        run_tables,
        score_records,
        summary_rows,
    )
    from groundwork.quality.labels import BadLabels, labels

    try:
        labelled = labels(questions_file)
    except BadLabels as exc:
        err.print(f"[red]error:[/] {escape(str(exc))}", highlight=False)
        raise typer.Exit(EXIT_USAGE) from exc
    wh = existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        run_id = answered_run(con, wh, run_id)
        tables = run_tables(con, wh, run_id)
    scores = question_scores(labelled, tables)
    if not scores:
        err.print(
            f"[red]error:[/] run {run_id} answered none of the {len(labelled)} questions in "
            f"{escape(str(questions_file))} (was it run with --questions on this file?)",
            highlight=False,
        )
        raise typer.Exit(EXIT_USAGE)
    missing = not_in_run(labelled, tables)
    records = score_records(scores)
    payload = {
        "run_id": run_id,
        "questions_file": str(questions_file),
        "not_in_run": missing,
        "summary": summary_rows(scores),
        "questions": records,
    }
    text = json.dumps(payload, ensure_ascii=False, indent=1) + "\n"
    if out_path is not None:
        out_path.write_text(text, encoding="utf-8")
    if as_json:
        sys.stdout.write(text)
        return
    title = f"{questions_file} against run {run_id}"
    out.print(_summary_table(payload["summary"], title))
    if details:
        out.print(_details_table(records))
    if missing:
        shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
        out.print(f"not in the run, not scored: {len(missing)} ({escape(shown)})", highlight=False)
    if out_path is not None:
        out.print(f"wrote {out_path}", highlight=False)
