"""The `groundwork` command line: run the pipeline, query the warehouse.

Exit codes of `run`: 0 published with nothing rejected; 3 published, but some files or records
were rejected (listed above the summary and in `rejected_documents`); 1 the run failed a hard
check or a stage, and nothing was published; 2 bad usage (for example a missing corpus folder).
"""

from __future__ import annotations

import csv
import gc as collector  # `gc` is the name of a command below
import json
import logging
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
import yaml
from rich.console import Console
from rich.table import Table

from groundwork.stages import STAGES
from schemas.config import ColumnMapping, RunConfig, profile_config, warehouse_dir

if TYPE_CHECKING:  # imported lazily at run time: `groundwork --help` stays fast
    from groundwork.warehouse import Warehouse
    from schemas.run_summary import RunSummary

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Evidence-first compliance pipeline: requirement register and answers.",
)
err = Console(stderr=True, soft_wrap=True)
out = Console()

EXIT_REJECTED, EXIT_FAILED, EXIT_USAGE = 3, 1, 2
WarehouseOption = Annotated[
    Path | None,
    typer.Option(
        "--warehouse",
        "-w",
        help="warehouse folder (default: $GROUNDWORK_WAREHOUSE or ./warehouse)",
        show_default=False,
    ),
]


Stage = StrEnum("Stage", {name: name for name in STAGES})


class Runner(StrEnum):
    local = "local"
    dask = "dask"


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def _mapping(pairs: list[str]) -> ColumnMapping:
    fields = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in ColumnMapping.model_fields:
            raise typer.BadParameter(
                f"{pair!r}: use FIELD=COLUMN, FIELD one of {', '.join(ColumnMapping.model_fields)}"
            )
        fields[key] = value
    return ColumnMapping(**fields)


class _ConsoleLines(logging.Handler):
    """One unwrapped line per message (a rejected file, say), above the progress bars."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(self.format(record), markup=False, highlight=False)


def _quiet_prefect(verbose: bool) -> None:
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO" if verbose else "WARNING")
    logging.getLogger("groundwork").handlers[:] = [_ConsoleLines()]
    logging.getLogger("groundwork").propagate = False
    logging.getLogger("distributed").setLevel(logging.WARNING)  # Dask's cluster chatter


@app.command()
def run(
    corpus: Annotated[
        Path,
        typer.Option(
            "--corpus",
            "-c",
            help="folder of statutes, regulations "
            "and policies (md, txt, html, pdf, json, jsonl, parquet)",
        ),
    ],
    questions: Annotated[
        Path | None,
        typer.Option(
            "--questions",
            "-q",
            help="questions to answer (YAML, CSV or JSONL with question_id, "
            "question and optional topic, category, source_types, jurisdiction)",
        ),
    ] = None,
    warehouse: WarehouseOption = None,
    mapping: Annotated[
        list[str],
        typer.Option(
            "--map",
            help="column mapping for passage collections, FIELD=COLUMN or FIELD='{col} text' "
            "(fields: id text title citation source_type jurisdiction url effective_date)",
        ),
    ] = [],  # noqa: B006
    workers: Annotated[
        int | None, typer.Option(help="worker processes (0 = one per core)", show_default="0")
    ] = None,
    config_file: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="YAML or JSON run config: per-stage backends (rules or a model server), "
            "token budget, chunk size, ... (see README)",
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="settings laid over the config: light, standard or strict claim checks "
            "(profiles/<name>.yaml), or a file; it overrides only what it names",
        ),
    ] = None,
    replay: Annotated[
        bool, typer.Option("--replay", help="take model replies from the cache only, no calls")
    ] = False,
    from_stage: Annotated[
        Stage | None,
        typer.Option("--from-stage", help="rerun a run from this stage on (earlier stages cached)"),
    ] = None,
    only: Annotated[
        Stage | None, typer.Option("--only", help="rerun just this stage of a run, then stop")
    ] = None,
    rerun: Annotated[
        str | None,
        typer.Option("--run", help="the run --from-stage/--only continue (default: the latest)"),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="run every stage even if nothing changed")
    ] = False,
    task_runner: Annotated[
        Runner,
        typer.Option(
            "--task-runner",
            help="local: worker processes on this machine; dask: shards as Prefect task runs "
            "on a Dask cluster (a local one, or --dask-address)",
        ),
    ] = Runner.local,
    dask_address: Annotated[
        str | None,
        typer.Option("--dask-address", help="Dask scheduler, e.g. tcp://10.0.0.5:8786"),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="show Prefect's logs")] = False,
) -> None:
    """Ingest a corpus, extract requirements with stable IDs, answer questions, review, publish.

    A run whose inputs (corpus files, questions, config) equal the published run's does nothing
    and says so. Only one run at a time may use a warehouse; a second one fails at once."""
    if not corpus.is_dir():
        err.print(f"[red]error:[/] corpus folder {corpus} does not exist or is not a folder")
        raise typer.Exit(EXIT_USAGE)
    if questions is not None and not questions.is_file():
        err.print(f"[red]error:[/] questions file {questions} does not exist")
        raise typer.Exit(EXIT_USAGE)
    config = _run_config(config_file, profile, mapping, workers, replay)
    _quiet_prefect(verbose)
    from flows.corpus import corpus_run
    from groundwork.progress import live_display
    from groundwork.warehouse import WarehouseBusy

    # The modules just imported live until exit: frozen, the cyclic collector stops walking
    # their objects at every full collection of the run (and again at exit).
    collector.freeze()
    target = warehouse_dir(warehouse)
    flow = corpus_run
    if task_runner is Runner.dask:
        from groundwork.shards import dask_runner

        flow = corpus_run.with_options(task_runner=dask_runner(dask_address))
    try:
        with live_display():
            summary = flow(
                corpus=str(corpus),
                warehouse=str(target),
                questions=str(questions) if questions else None,
                config=config,
                from_stage=from_stage and from_stage.value,
                only=only and only.value,
                run=rerun,
                force=force,
            )
    except WarehouseBusy as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    collector.freeze()  # the interpreter's last collection would walk all the run left behind
    _print_summary(summary)
    if summary.status not in ("published", "unchanged", "partial"):
        raise typer.Exit(EXIT_FAILED)
    if summary.rejected or summary.rejected_questions or summary.model_rejections:
        raise typer.Exit(EXIT_REJECTED)


def _run_config(
    path: Path | None, profile: str | None, mapping: list[str], workers: int | None, replay: bool
) -> RunConfig:
    """The run config: the file's settings (or the defaults), the profile's on top of them, and
    explicitly given options on top of both."""
    overrides: dict = {}
    if mapping:
        overrides["mapping"] = _mapping(mapping).model_dump()
    if workers is not None:
        overrides["workers"] = workers
    if replay:
        overrides["replay"] = True
    try:
        base = RunConfig.from_file(path) if path else RunConfig()
    except (OSError, ValueError, yaml.YAMLError) as exc:  # ValidationError is a ValueError
        err.print(f"[red]error:[/] config {path}: {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    try:
        return profile_config(profile, base).overlaid(overrides)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        err.print(f"[red]error:[/] profile {profile}: {exc}")
        raise typer.Exit(EXIT_USAGE) from exc


def _print_summary(summary: RunSummary) -> None:
    table = Table(title=f"run {summary.run_id}: {summary.status.upper()}", show_header=False)
    if summary.reused_run:
        table.add_row(
            "nothing to do",
            f"corpus, questions and config are those of the published run {summary.reused_run}",
        )
    table.add_row("files read", f"{summary.files:,}")
    table.add_row(
        "documents", f"{summary.documents:,} ({summary.changed_documents:,} new or changed)"
    )
    table.add_row("rejected", f"{summary.rejected:,} (listed above; table rejected_documents)")
    table.add_row("chunks", f"{summary.chunks:,}")
    table.add_row(
        "requirements",
        f"{summary.requirements:,} ({summary.new_ids:,} new IDs, "
        f"{summary.retired_ids:,} retired in the register)",
    )
    if summary.questions or summary.rejected_questions:
        table.add_row(
            "questions",
            f"{summary.questions:,} ({summary.answered:,} answered, "
            f"{summary.no_evidence:,} NO_AUTHORITATIVE_EVIDENCE, "
            f"{summary.rejected_questions:,} rejected; {summary.answers_copied:,} answers "
            "copied from the previous run, their evidence unchanged)",
        )
    for stage, used in summary.model_usage.items():
        table.add_row(
            f"model {stage}",
            f"{used['calls']:,} calls, {used['cache_hits']:,} cache hits, "
            f"{used['prompt_tokens'] + used['completion_tokens']:,} tokens, "
            f"{used['retries']:,} retries, {used['failures']:,} failures, "
            f"{used['latency_s']:.1f}s in calls",
        )
    if summary.model_usage:
        table.add_row("model rejections", f"{summary.model_rejections:,} (table model_rejections)")
    if summary.failed_checks:
        table.add_row("failed checks", ", ".join(summary.failed_checks))
    table.add_row("time", ", ".join(f"{k} {v:.1f}s" for k, v in summary.timings.items()))
    table.add_row("warehouse", f"{summary.warehouse}/groundwork.duckdb + tables/*/run_id=*/")
    if summary.status in ("published", "failed"):
        table.add_row(
            "reports",
            f"{summary.warehouse}/reports/{summary.run_id}/ (answers.md, audit_trail.json; "
            "data_docs/ follows from a background job unless data_docs is off)",
        )
    table.add_row("query", 'groundwork sql "SELECT * FROM current_requirements LIMIT 5"')
    out.print(table)


def _existing_warehouse(warehouse: Path | None) -> Warehouse:
    """The warehouse to read, or a usage error when there is none yet."""
    from groundwork.warehouse import Warehouse

    wh = Warehouse(warehouse_dir(warehouse))
    if not wh.exists():
        err.print(f"[red]error:[/] no warehouse at {wh.root} (run `groundwork run` first)")
        raise typer.Exit(EXIT_USAGE)
    return wh


@app.command()
def sql(
    statement: Annotated[str, typer.Argument(help="a SQL query (read-only)")],
    warehouse: WarehouseOption = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="output format")] = (
        OutputFormat.table
    ),
) -> None:
    """Query the warehouse read-only: tables, current_* views and all-runs views."""
    import duckdb

    wh = _existing_warehouse(warehouse)
    try:
        with wh.connect(read_only=True) as con:
            cursor = con.execute(statement)
            columns = [d[0] for d in cursor.description] if cursor.description else []
            rows = cursor.fetchall() if columns else []
    except duckdb.Error as exc:
        err.print(f"[red]error:[/] {exc}")
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


@app.command()
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

    wh = _existing_warehouse(warehouse)
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


@app.command()
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

    wh = _existing_warehouse(warehouse)
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


@app.command()
def report(
    run_id: Annotated[
        str | None,
        typer.Option("--run", help="the run to report (default: the published run)"),
    ] = None,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="HTML file to write (default: <warehouse>/reports/<run>/report.html)",
            show_default=False,
        ),
    ] = None,
    warehouse: WarehouseOption = None,
) -> None:
    """Write a run's answers as one self-contained HTML page (no network needed to open it).

    Each citation marker opens an evidence card (source, date, URL, the quote marked in its
    passage, its location, the verdict); each answer and the run have a verification summary
    that highlights statements by verdict; numbers expand to their source quote and value."""
    from groundwork.report.data import has_answers, published_run
    from groundwork.report.write import default_path, write_report

    wh = _existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        run_id = run_id or published_run(con)
        if run_id is None:
            err.print("[red]error:[/] nothing is published yet: name a run with --run")
            raise typer.Exit(EXIT_FAILED)
        if not has_answers(wh, run_id):
            err.print(f"[red]error:[/] run {run_id} has no answers in {wh.root}")
            raise typer.Exit(EXIT_USAGE)
        path = write_report(con, wh, run_id, out_path or default_path(wh, run_id))
    out.print(f"wrote {path} (run {run_id}, {path.stat().st_size / 1e6:.1f} MB)")


@app.command()
def gc(
    keep: Annotated[int, typer.Option("--keep", min=0, help="newest runs to keep")],
    warehouse: WarehouseOption = None,
) -> None:
    """Remove old runs' Parquet files and reports; the published run, and runs whose parts a
    kept run still reads, are always kept, and every run keeps its row in `runs`."""
    from groundwork.gc import collection
    from groundwork.warehouse import WarehouseBusy

    wh = _existing_warehouse(warehouse)
    try:
        done = collection(wh, keep)
    except WarehouseBusy as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    out.print(
        f"removed the files of {len(done.removed)} run(s): {', '.join(done.removed) or 'none'}"
    )
    if done.referenced:
        out.print(
            f"kept {len(done.referenced)} older run(s) whose parts later runs reuse: "
            + ", ".join(done.referenced)
        )


class ExportFormat(StrEnum):  # the keys of groundwork.export_formats.DEFAULT_NAMES
    json = "json"
    jsonl = "jsonl"
    parquet = "parquet"


@app.command()
def export(
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="json: one document; jsonl: one record a line (record_type); "
            "parquet: a folder with one file per entity",
        ),
    ] = ExportFormat.json,
    run: Annotated[
        str | None, typer.Option("--run", help="the run to export (default: the published run)")
    ] = None,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="file (folder for parquet) to write "
            "(default: <warehouse>/reports/<run>/provenance.json, .jsonl or provenance/)",
            show_default=False,
        ),
    ] = None,
    warehouse: WarehouseOption = None,
) -> None:
    """Export a run's full provenance: sources, documents (with text), requirements, questions,
    answers, statements, citations, verifications and checks, with stable IDs. The records meet
    the JSON Schema in schemas/export.schema.json."""
    from groundwork import export_formats
    from groundwork.export import NotExportable, StaleDocuments, exportable_run, provenance

    wh = _existing_warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        try:
            run_id = exportable_run(con, wh, run)
        except NotExportable as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
        try:
            records = provenance(con, wh, run_id)
        except StaleDocuments as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(EXIT_FAILED) from exc
    try:
        target = export_formats.export_target(fmt.value, out_path, wh.root / "reports" / run_id)
    except export_formats.UnsafeTarget as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    export_formats.written_export(records, fmt.value, target)
    out.print(
        f"exported run {run_id} to {target}: {len(records.documents):,} documents, "
        f"{len(records.requirements):,} requirements, {len(records.statements):,} statements, "
        f"{len(records.citations):,} citations"
    )


cache_app = typer.Typer(no_args_is_help=True, help="Export or import the model response cache.")
app.add_typer(cache_app, name="cache")


@cache_app.command("export")
def cache_export(
    path: Annotated[Path, typer.Argument(help="Parquet file to write")],
    warehouse: WarehouseOption = None,
) -> None:
    """Write every cached model reply to a Parquet file (to replay a run elsewhere)."""
    from groundwork.llm.cache import export_cache

    with _existing_warehouse(warehouse).connect() as con:
        n = export_cache(con, path)
    out.print(f"exported {n:,} cached model replies to {path}")


@cache_app.command("import")
def cache_import(
    path: Annotated[Path, typer.Argument(help="Parquet file written by `cache export`")],
    warehouse: WarehouseOption = None,
) -> None:
    """Add the replies of an exported cache to this warehouse's cache (existing keys win)."""
    import duckdb

    from groundwork.llm.cache import import_cache
    from groundwork.warehouse import Warehouse

    if not path.is_file():
        err.print(f"[red]error:[/] {path} does not exist")
        raise typer.Exit(EXIT_USAGE)
    try:
        with Warehouse(warehouse_dir(warehouse)).connect() as con:
            n = import_cache(con, path)
    except duckdb.Error as exc:
        err.print(f"[red]error:[/] {path} is not an exported model cache: {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    out.print(f"imported {n:,} model replies from {path}")
