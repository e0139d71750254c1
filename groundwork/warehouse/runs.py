"""The `runs` table: one row per run, opened when the flow starts and closed when it ends."""

from __future__ import annotations

import fcntl
import hashlib
import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from groundwork.ingest.listing import CorpusListing, file_digest
from groundwork.warehouse.errors import WarehouseUnusable
from groundwork.warehouse.sqlfiles import query, relation_sql, run_script
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig


def new_run_id() -> str:
    """A run ID that sorts by start time: r20261121T101500123456Z."""
    return "r" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def start_run(
    warehouse: Warehouse,
    run_id: str,
    flow_run_id: str | None,
    corpus: str,
    config: RunConfig,
    fingerprint: str,
    code_version: str,
) -> None:
    """Record that a run started (or restarted), with its config, before any stage writes."""
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
                "input_fingerprint": fingerprint,
                "code_version": code_version,
            },
        )


def questions_digest(questions: Path | None) -> str:
    """A hash of the questions file ('' for none; a missing file hashes as missing)."""
    if questions is None:
        return ""
    return file_digest(questions) if questions.is_file() else f"missing:{questions}"


def stage_inputs(listing: CorpusListing, questions: Path | None) -> dict[str, str]:
    """What the stages read from outside the warehouse, hashed by stage: the corpus (ingest) and
    the questions file (questions)."""
    return {
        "ingest": listing.digest,
        "questions": questions_digest(questions),
    }


def input_fingerprint(corpus: str, questions: str, config: RunConfig, code: str) -> str:
    """A hash of everything a run reads: corpus, questions, config and stage code versions.
    Equal fingerprints mean equal outputs."""
    blob = f"{corpus}|{questions}|{config.digest()}|{code}"
    return hashlib.sha256(blob.encode()).hexdigest()


def prepared_run(warehouse: Warehouse, flow_run_id: str | None, resume: str | None) -> str:
    """The run to work on: the one named, the one this flow run started before (a retry), or a
    new one. Runs left 'running' by a dead process are marked abandoned first."""
    with warehouse.connect() as con:
        run_script(con, "runs/abandon_stale")
        earlier = (
            query(con, "runs/of_flow_run", {"flow_run_id": flow_run_id}).fetchone()
            if flow_run_id
            else None
        )
    warehouse.discard_leftovers()
    return resume or (earlier[0] if earlier else new_run_id())


def latest_run(warehouse: Warehouse) -> str | None:
    """The newest run that did work (for --from-stage without --run)."""
    with warehouse.connect(read_only=True) as con:
        row = query(con, "runs/latest").fetchone()
    return row[0] if row else None


def unchanged_published(warehouse: Warehouse, fingerprint: str) -> tuple[str, dict] | None:
    """The published run and its counts, if it had exactly this run's inputs."""
    if not warehouse.exists():
        return None
    with warehouse.connect(read_only=True) as con:
        row = query(
            con,
            "runs/published_unchanged",
            {"input_fingerprint": fingerprint},
            published=relation_sql("runs/published"),
        ).fetchone()
    return (row[0], json.loads(row[1])) if row else None


def record_unchanged(
    warehouse: Warehouse,
    run_id: str,
    flow_run_id: str | None,
    corpus: str,
    config: RunConfig,
    fingerprint: str,
    reused: tuple[str, dict],
    seconds: float,
) -> None:
    """Record a run that had nothing to do: the published run stays as it is."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/unchanged",
            {
                "run_id": run_id,
                "flow_run_id": flow_run_id,
                "started_at": datetime.now(UTC).replace(tzinfo=None),
                "corpus": corpus,
                "config": config.model_dump_json(),
                "config_hash": config.digest(),
                "input_fingerprint": fingerprint,
                "reused_run": reused[0],
                "counts": json.dumps(reused[1]),
                "timings": json.dumps({"fingerprint": round(seconds, 3)}),
            },
        )


@dataclass(frozen=True)
class Outcome:
    """How a run ended, for its row in `runs`."""

    status: str
    corpus_hash: str | None = None
    counts: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    error: str | None = None


def finish_run(
    warehouse: Warehouse, run_id: str, flow_run_id: str | None, corpus: str, outcome: Outcome
) -> None:
    """Close a run's row with its outcome (opening it, if the run failed before it had one)."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/finish",
            {
                "run_id": run_id,
                "flow_run_id": flow_run_id,
                "corpus": corpus,
                "status": outcome.status,
                "corpus_hash": outcome.corpus_hash,
                "counts": json.dumps(outcome.counts),
                "timings": json.dumps(outcome.timings),
                "error": outcome.error,
            },
        )


UNRECORDED = "unrecorded_runs.jsonl"


@contextmanager
def run_session(warehouse: Warehouse, flow_run_id: str | None, corpus: str) -> Iterator[None]:
    """The run lock and the database session a run works in.

    A run that cannot have them (another run or process holds the warehouse, or its database
    is damaged) cannot write its row either: it is noted in <warehouse>/unrecorded_runs.jsonl,
    and the next run that has them records every such note in `runs`, as a failed run with its
    error. So every attempt leaves a row, the ones a dashboard's open connection stopped too.
    """
    with ExitStack() as held:
        try:
            held.enter_context(warehouse.run_lock(f"flow run {flow_run_id}"))
            held.enter_context(warehouse.session())
        except WarehouseUnusable as exc:
            _note_attempt(warehouse, flow_run_id, corpus, str(exc))
            raise
        record_noted_attempts(warehouse)
        yield


def _note_attempt(warehouse: Warehouse, flow_run_id: str | None, corpus: str, error: str) -> None:
    note = {
        "run_id": new_run_id(),
        "flow_run_id": flow_run_id,
        "started_at": datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" "),
        "corpus": corpus,
        "error": error,
    }
    warehouse.root.mkdir(parents=True, exist_ok=True)
    with (warehouse.root / UNRECORDED).open("a", encoding="utf-8") as journal:
        fcntl.flock(journal, fcntl.LOCK_EX)  # one note at a time, and not while one is read
        journal.write(json.dumps(note) + "\n")


def record_noted_attempts(warehouse: Warehouse) -> None:
    """Record in `runs` every attempt noted in unrecorded_runs.jsonl (see `run_session`), as a
    failed run with its error, and empty the notes."""
    path = warehouse.root / UNRECORDED
    if not path.exists():
        return
    with path.open("r+", encoding="utf-8") as journal:
        fcntl.flock(journal, fcntl.LOCK_EX)
        notes = [json.loads(line) for line in journal if line.strip()]
        with warehouse.connect() as con:
            for note in notes:
                note["started_at"] = datetime.fromisoformat(note["started_at"])
                run_script(con, "runs/record_attempt", note)
        journal.truncate(0)


def model_outcome(warehouse: Warehouse, run_id: str) -> tuple[dict[str, dict], int]:
    """The run's per-stage model usage and how many items its model stages rejected."""
    with warehouse.connect(read_only=True) as con:
        (usage,) = query(con, "runs/model_usage_of", {"run_id": run_id}).fetchone()
        (rejected,) = query(con, "runs/model_rejection_count", {"run_id": run_id}).fetchone()
    return (json.loads(usage) if usage else {}), rejected
