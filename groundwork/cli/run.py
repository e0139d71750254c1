"""`groundwork run`: assemble the run config from file, profile and options, run the corpus flow,
print the end-of-run summary and turn its outcome into the exit code."""

from __future__ import annotations

import gc as collector  # `gc` is the name of a command
import logging
import os
from contextlib import suppress
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
import yaml
from rich.table import Table

from groundwork.cli.common import (
    EXIT_FAILED,
    EXIT_REJECTED,
    EXIT_USAGE,
    WarehouseOption,
    err,
    out,
)
from groundwork.stages import STAGES
from schemas.config import ColumnMapping, RunConfig, profile_config, warehouse_dir

if TYPE_CHECKING:  # imported lazily at run time: `groundwork --help` stays fast
    from schemas.run_summary import RunSummary

Stage = StrEnum("Stage", {name: name for name in STAGES})


class Runner(StrEnum):
    local = "local"
    dask = "dask"


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


class _UsersMistakes(logging.Filter):
    """Drops Prefect's reports (the traceback, the failed state) of a flow or task that stopped
    on a warehouse it cannot use (another process holds it, it is damaged, a file of its
    tables is gone, its disk is full) or on parameters that name nothing: the CLI says so in
    one line, and a traceback would bury it."""

    def filter(self, record: logging.LogRecord) -> bool:
        from groundwork.parameters import InvalidParameters
        from groundwork.warehouse.errors import (
            WarehouseUnusable,
            missing_file,
            missing_path,
            out_of_space,
            said_out_of_space,
        )

        failure = record.exc_info[1] if record.exc_info else None
        message = record.getMessage()
        return not (
            isinstance(failure, WarehouseUnusable | InvalidParameters)
            or missing_file(failure)
            or out_of_space(failure)
            or missing_path(message)
            or said_out_of_space(message)
            or InvalidParameters.__name__ in message
        )


def _quiet_prefect(verbose: bool) -> None:
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO" if verbose else "WARNING")
    for logger in ("prefect.flow_runs", "prefect.task_runs"):
        logging.getLogger(logger).addFilter(_UsersMistakes())
    logging.getLogger("groundwork").handlers[:] = [_ConsoleLines()]
    logging.getLogger("groundwork").propagate = False
    logging.getLogger("distributed").setLevel(logging.WARNING)  # Dask's cluster chatter
    # Prefect's background senders say "Still processing items: 1 items remaining..." while they
    # flush at exit on a busy machine: a progress note, not a warning for the person running
    for sender in ("EventsWorker", "APILogWorker"):
        logging.getLogger(sender).setLevel(logging.INFO if verbose else logging.ERROR)


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
            "token budget, chunk size, ... (see docs/models.md)",
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
            "on a Dask cluster (a local one of --workers processes, or --dask-address)",
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
    and says so. Only one run at a time may use a warehouse: without a Prefect server a second
    one fails at once; with one (PREFECT_API_URL set) it waits its turn."""
    config = _run_config(config_file, profile, mapping, workers, replay)
    if task_runner is Runner.dask and dask_address:
        from groundwork.runtime.shards import unreachable_scheduler

        if problem := unreachable_scheduler(dask_address):
            err.print(f"[red]error:[/] {problem}", highlight=False)
            raise typer.Exit(EXIT_USAGE)
    target = warehouse_dir(warehouse)
    from groundwork.warehouse.errors import WarehouseBusy
    from groundwork.warehouse.migrations import upgraded
    from groundwork.warehouse.store import Warehouse

    # An older warehouse is migrated in place before anything reads it; while another run holds
    # it, this run waits its turn in the flow, which migrates then.
    with suppress(WarehouseBusy):
        upgraded(Warehouse(target))
    if not (from_stage or only or force):
        from groundwork.warehouse.unchanged import unchanged_run

        # a nightly run that has nothing to do says so before Prefect starts (its server alone
        # takes seconds); whatever else the run meets, the flow below handles
        unchanged = unchanged_run(corpus, Warehouse(target), questions, config)
        if unchanged is not None:
            _print_summary(unchanged)
            _exit_for(unchanged)
            return
    _quiet_prefect(verbose)
    from groundwork.runtime.warmup import (
        digests_taken,
        no_heartbeats_to_a_passing_server,
        server_starting,
    )

    with server_starting():  # the server starts while the flow's inputs are prepared
        digests_taken(corpus, Warehouse(target))
        from flows.corpus import corpus_run, stage_tasks

        stage_tasks()
    from groundwork.parameters import InvalidParameters
    from groundwork.runtime.progress import live_display
    from groundwork.warehouse.errors import WarehouseUnusable

    # The modules just imported live until exit: frozen, the cyclic collector stops walking
    # their objects at every full collection of the run (and again at exit).
    collector.freeze()
    flow = corpus_run
    if task_runner is Runner.dask:
        from groundwork.runtime.shards import dask_runner, server_warning

        if warning := server_warning(dask_address):
            err.print(f"[yellow]warning:[/] {warning}", highlight=False)
        flow = corpus_run.with_options(task_runner=dask_runner(dask_address, config.workers))
    try:
        with live_display(), no_heartbeats_to_a_passing_server():
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
    except WarehouseUnusable as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    except InvalidParameters as exc:  # checked by the flow, so a deployment's run says it too
        err.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(EXIT_USAGE) from exc
    collector.freeze()  # the interpreter's last collection would walk all the run left behind
    _print_summary(summary)
    _exit_for(summary)


def _exit_for(summary: RunSummary) -> None:
    """Nothing for a clean run; typer.Exit with the code of a failed run or rejected input."""
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
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")  # a long path folds onto the next line, never cut
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
    if summary.status == "published":
        table.add_row(
            "report",
            f"{summary.warehouse}/reports/{summary.run_id}/report.html (open it in a browser; "
            f"the latest published is {summary.warehouse}/report.html)",
        )
        table.add_row(
            "dashboards", f"{summary.warehouse}/published.duckdb (the published run, read-only)"
        )
    table.add_row("query", 'groundwork sql "SELECT * FROM current_requirements LIMIT 5"')
    out.print(table)
