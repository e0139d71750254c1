"""What the corpus flow asks of the Prefect server and tells it, besides its states: its turn
on the warehouse (a global concurrency limit), where its task results are kept (a storage block
in the warehouse), its name and tags, its log lines, and its artifacts.

Kept beside the flow, not in the library: these are calls to Prefect's API, and the library
never depends on an orchestrator (groundwork/run_artifacts.py builds what they show).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from uuid import UUID

from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.client.orchestration import get_client
from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate
from prefect.concurrency.sync import concurrency
from prefect.exceptions import ObjectAlreadyExists
from prefect.filesystems import LocalFileSystem
from prefect.logging.handlers import APILogHandler
from prefect.runtime import flow_run
from prefect.settings import PREFECT_API_URL

from groundwork.run_artifacts import rejection_rows, stage_rows, summary_markdown
from groundwork.warehouse.store import Warehouse
from schemas.run_summary import RunSummary


def warehouse_name(warehouse: Warehouse, kind: str) -> str:
    """The name of a server object of one warehouse folder (`kind`: warehouse, results): every
    deployment and every CLI run that writes it uses the same one, wherever it started from."""
    digest = hashlib.sha256(str(warehouse.root.resolve()).encode()).hexdigest()[:16]
    return f"groundwork-{kind}-{digest}"


def results_storage(warehouse: Warehouse) -> LocalFileSystem:
    """The storage of the stages' task results: a folder of the warehouse
    (`Warehouse.results_dir`), saved as a block, since Prefect keeps result storage on the
    server, so that a retry on any worker that mounts the warehouse reads the same results."""
    storage = LocalFileSystem(basepath=str(warehouse.results_dir().resolve()))
    storage.save(warehouse_name(warehouse, "results"), overwrite=True)
    return storage


QUEUE = "GROUNDWORK_QUEUE"  # "off": fail fast at the run lock even with a server
LEASE_S = 60  # a killed run's slot is free again this long after it died (Prefect renews it)


@contextmanager
def warehouse_turn(warehouse: Warehouse) -> Iterator[None]:
    """Wait for this warehouse's turn, with a Prefect server: one slot of a global concurrency
    limit keyed by the warehouse (created on first use), so runs of any deployment queue one
    behind the other instead of failing at the run lock. Without a server (the CLI's ephemeral
    mode), or with GROUNDWORK_QUEUE=off, there is no queue: the run lock fails fast and says
    who holds it."""
    if not PREFECT_API_URL.value() or os.environ.get(QUEUE, "").lower() == "off":
        yield
        return
    name = warehouse_name(warehouse, "warehouse")
    # created, not upserted: Prefect's upsert reads, then creates, so two runs started together
    # both found none and one failed on the other's creation; an existing one is the same limit
    with get_client(sync_client=True) as client, suppress(ObjectAlreadyExists):
        client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name=name, limit=1))
    # a lease renewal that fails once (a server restart) must not kill a long run
    with concurrency(
        name, occupy=1, lease_duration=LEASE_S, strict=True, raise_on_lease_renewal_failure=False
    ):
        yield


def ship_logs() -> None:
    """Send the `groundwork` logger's lines to the flow run's logs in the UI (once per process):
    a worker sets up Prefect's logging before it imports the flow, so the extra-loggers setting
    groundwork/__init__.py gives comes too late there, and the CLI replaces the handlers."""
    logger = logging.getLogger("groundwork")
    if not any(isinstance(handler, APILogHandler) for handler in logger.handlers):
        logger.addHandler(APILogHandler())
    logger.setLevel(min(logger.getEffectiveLevel(), logging.INFO))


def named_flow_run(run_id: str, tags: list[str]) -> None:
    """Name the flow run after the groundwork run it carries, and tag it (`tags` with those the
    flow run started with: each call gives the whole set)."""
    current = flow_run.get_id()
    if current is None:
        return
    with get_client(sync_client=True) as client:
        merged = sorted({*flow_run.get_tags(), *tags})
        client.update_flow_run(UUID(current), name=run_id, tags=merged)


def shown_in_ui(summary: RunSummary, rejections: list[dict], tags: list[str]) -> None:
    """The run's summary as a Markdown artifact, its stage timings and rejections as table
    artifacts, and tags that mark its outcome (a run published with rejections among them)."""
    if flow_run.get_id() is None:
        return
    create_markdown_artifact(
        summary_markdown(summary, rejections),
        key="groundwork-run-summary",
        description=f"groundwork run {summary.run_id}: {summary.status}",
    )
    if summary.timings:
        create_table_artifact(
            stage_rows(summary), key="groundwork-stage-timings", description="seconds per stage"
        )
    if rejections:
        create_table_artifact(
            rejection_rows(rejections),
            key="groundwork-rejections",
            description="files and records this run rejected, with the reason",
        )
    named_flow_run(summary.run_id, tags)


def failure_shown_in_ui(run_id: str, error: str, tags: list[str]) -> None:
    """A failed run's error as its summary artifact, so the run page says why in one line."""
    if flow_run.get_id() is None:
        return
    create_markdown_artifact(
        f"# groundwork run {run_id}: FAILED\n\n{error}\n\nNothing was published.",
        key="groundwork-run-summary",
        description=f"groundwork run {run_id}: failed",
    )
    named_flow_run(run_id, tags)
