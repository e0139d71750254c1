"""The `runs` table: one row per run, opened when the flow starts and closed when it ends."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from groundwork.sqlfiles import query, run_script
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


def model_outcome(warehouse: Warehouse, run_id: str) -> tuple[dict[str, dict], int]:
    """The run's per-stage model usage and how many items its model stages rejected."""
    with warehouse.connect(read_only=True) as con:
        (usage,) = query(con, "runs/model_usage_of", {"run_id": run_id}).fetchone()
        (rejected,) = query(con, "runs/model_rejection_count", {"run_id": run_id}).fetchone()
    return (json.loads(usage) if usage else {}), rejected
