"""The `runs` table: one row per run, opened when the flow starts and closed when it ends."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from groundwork.sqlfiles import run_script
from groundwork.warehouse import Warehouse
from schemas.config import RunConfig


def new_run_id() -> str:
    """A run ID that sorts by start time: r20261121T101500123456Z."""
    return "r" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def start_run(
    warehouse: Warehouse, run_id: str, flow_run_id: str | None, corpus: str, config: RunConfig
) -> None:
    """Record that a run started, with its config, before any stage writes."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/start",
            {
                "run_id": run_id,
                "flow_run_id": flow_run_id,
                "corpus": corpus,
                "config": config.model_dump_json(),
                "config_hash": config.digest(),
            },
        )


def finish_run(
    warehouse: Warehouse,
    run_id: str,
    status: str,
    corpus_hash: str | None,
    counts: dict,
    timings: dict,
    error: str | None,
) -> None:
    """Close a run's row with its outcome."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/finish",
            {
                "run_id": run_id,
                "status": status,
                "corpus_hash": corpus_hash,
                "counts": json.dumps(counts),
                "timings": json.dumps(timings),
                "error": error,
            },
        )
