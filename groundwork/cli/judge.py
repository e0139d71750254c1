"""`groundwork judge`: the pipeline's own judgements, outside a run. `judge pairs` asks the
grounding gate whether each passage answers its question."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from groundwork.cli.common import EXIT_REJECTED, EXIT_USAGE, err, out

judge_app = typer.Typer(
    no_args_is_help=True,
    help="Judge rows outside a run, exactly as the pipeline does.",
)
COLUMNS = ("id", "score", "verified", "reason", "rationale")


@judge_app.command("pairs")
def pairs(
    file: Annotated[Path, typer.Argument(help="JSONL or CSV with id, question, text")],
    out_path: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="write the results to a .csv or .jsonl file"),
    ] = None,
) -> None:
    """Does each text answer its question? The grounding gate a run uses (relevance model,
    threshold, validators), with the text as one quote. Exit 0: every row judged; 3: some rows
    rejected (one line each, with its line number); 2: the file cannot be read."""
    from groundwork.judge import UnreadablePairs, judged_pairs, read_pairs
    from groundwork.scores import relevance_scorer

    if out_path is not None and out_path.suffix.lower() not in (".csv", ".jsonl"):
        err.print(f"[red]error:[/] --out {out_path}: expected a .csv or .jsonl file")
        raise typer.Exit(EXIT_USAGE)
    try:
        found = read_pairs(file)
    except UnreadablePairs as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    for bad in found.rejections:
        err.print(f"[yellow]rejected[/] {file} line {bad['line']}: {bad['reason']}")
    results = judged_pairs(found.rows, relevance_scorer())
    if out_path is None:
        _print(results)
    else:
        _write(results, out_path)
        err.print(f"wrote {len(results)} judgement(s) to {out_path}")
    verified = sum(r["verified"] for r in results)
    rejected = len(found.rejections)
    err.print(f"{len(results)} judged ({verified} verified), {rejected} row(s) rejected")
    if found.rejections:
        raise typer.Exit(EXIT_REJECTED)


def _print(results: list[dict]) -> None:
    """A table on a terminal; CSV when the output is piped, so nothing is cut."""
    if not sys.stdout.isatty():
        writer = csv.DictWriter(sys.stdout, COLUMNS)
        writer.writeheader()
        writer.writerows(results)
        return
    table = Table(*COLUMNS)
    for r in results:
        table.add_row(r["id"], f"{r['score']:.4f}", str(r["verified"]), r["reason"], r["rationale"])
    out.print(table)


def _write(results: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        if path.suffix.lower() == ".csv":
            writer = csv.DictWriter(handle, COLUMNS)
            writer.writeheader()
            writer.writerows(results)
        else:
            handle.writelines(json.dumps(r) + "\n" for r in results)
