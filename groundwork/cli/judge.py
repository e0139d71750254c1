"""`groundwork judge`: the pipeline's own judgements, outside a run. `judge pairs` asks the
grounding gate whether each passage answers its question; `judge claims` asks the claim check
whether each piece of evidence supports its claim."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from groundwork.cli.common import EXIT_REJECTED, EXIT_USAGE, err, out
from groundwork.cli.help import Command, Group

judge_app = typer.Typer(
    cls=Group,
    no_args_is_help=True,
    help="Judge rows outside a run, exactly as the pipeline does.",
)
PAIR_COLUMNS = ("id", "score", "verified", "reason", "rationale")
CLAIM_COLUMNS = ("id", "verdict", "score", "reasons")
OutOption = Annotated[
    Path | None,
    typer.Option("--out", "-o", help="write the results to a .csv or .jsonl file"),
]


@judge_app.command("pairs", cls=Command)
def pairs(
    file: Annotated[Path, typer.Argument(help="JSONL or CSV with id, question, text")],
    out_path: OutOption = None,
) -> None:
    """Does each text answer its question? The grounding gate a run uses (relevance model,
    threshold, validators), with the text as one quote. Exit 0: every row judged; 3: some rows
    rejected (one line each, with its line number); 2: the file cannot be read."""
    from groundwork.judging import PAIR_FIELDS, judged_pairs
    from groundwork.models.scores import gate_scorer

    def judge(rows: list[dict]) -> list[dict]:
        return judged_pairs(rows, gate_scorer())

    def summary(results: list[dict]) -> str:
        return f"{len(results)} judged ({sum(r['verified'] for r in results)} verified)"

    _judged(file, out_path, PAIR_FIELDS, judge, PAIR_COLUMNS, summary)


@judge_app.command("claims", cls=Command)
def claims(
    file: Annotated[Path, typer.Argument(help="JSONL or CSV with id, claim, evidence")],
    out_path: OutOption = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="a run config (YAML or JSON) whose claim settings to use"),
    ] = None,
) -> None:
    """Does the evidence support each claim? The claim check a run gives a claim against one
    cited quote: SUPPORTED, PARTIAL, UNSUPPORTED or CONTRADICTED, the share of the claim's terms
    the evidence states, and the reasons. Exit codes as for `judge pairs`."""
    from groundwork.judging import CLAIM_FIELDS, judged_claims
    from schemas.config import RunConfig

    settings = (RunConfig.from_file(config) if config else RunConfig()).claims

    def judge(rows: list[dict]) -> list[dict]:
        return judged_claims(rows, settings)

    def summary(results: list[dict]) -> str:
        supported = sum(r["verdict"] == "SUPPORTED" for r in results)
        return f"{len(results)} judged ({supported} SUPPORTED)"

    _judged(file, out_path, CLAIM_FIELDS, judge, CLAIM_COLUMNS, summary)


def _judged(
    file: Path,
    out_path: Path | None,
    fields: tuple[str, ...],
    judge: Callable[[list[dict]], list[dict]],
    columns: tuple[str, ...],
    summary: Callable[[list[dict]], str],
) -> None:
    """Read the file's rows, name each rejected one, judge the rest, print or write them, then
    the summary line; exits 3 when rows were rejected, 2 when the file cannot be read."""
    from groundwork.judging import UnreadableRows, read_rows

    if out_path is not None and out_path.suffix.lower() not in (".csv", ".jsonl"):
        err.print(f"[red]error:[/] --out {out_path}: expected a .csv or .jsonl file")
        raise typer.Exit(EXIT_USAGE)
    try:
        found = read_rows(file, fields)
    except UnreadableRows as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    for bad in found.rejections:
        err.print(f"[yellow]rejected[/] {file} line {bad['line']}: {bad['reason']}")
    results = judge(found.rows)
    if out_path is None:
        _print(results, columns)
    else:
        _write(results, out_path, columns)
        err.print(f"wrote {len(results)} judgement(s) to {out_path}")
    err.print(f"{summary(results)}, {len(found.rejections)} row(s) rejected")
    if found.rejections:
        raise typer.Exit(EXIT_REJECTED)


def _print(results: list[dict], columns: tuple[str, ...]) -> None:
    """A table on a terminal; CSV when the output is piped, so nothing is cut."""
    if not sys.stdout.isatty():
        writer = csv.DictWriter(sys.stdout, columns)
        writer.writeheader()
        writer.writerows(results)
        return
    table = Table(*columns)
    for r in results:
        table.add_row(*(_shown(r[c]) for c in columns))
    out.print(table)


def _shown(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _write(results: list[dict], path: Path, columns: tuple[str, ...]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        if path.suffix.lower() == ".csv":
            writer = csv.DictWriter(handle, columns)
            writer.writeheader()
            writer.writerows(results)
        else:
            handle.writelines(json.dumps(r) + "\n" for r in results)
