"""The corpus flow: ingest -> chunk -> extract -> register -> questions -> retrieve -> verify ->
compose -> review (-> one recomposition if an answer gate failed) -> publish.

Orchestration only: each stage is a task in tasks/, and this flow wires them, times them and
records the run. A stage that raises marks the run failed and leaves the published run untouched.

Three things make reruns cheap and safe:

- **No-op runs.** The run's input fingerprint (corpus file contents, questions file, config,
  stage versions) is computed before anything is parsed. If it equals the published run's, the
  run is recorded as `unchanged` and does nothing else.
- **Resume.** Each stage's cache key chains the run and config, the previous stage's key, the
  stage's version and what it reads from outside (the corpus for ingest, the questions file for
  questions), and its (small) return value is persisted; its real output is the
  run's committed Parquet. Retrying a failed flow run (Prefect UI, `prefect flow-run retry`)
  continues the same run: finished stages come back `Cached`, and the failed stage and those
  after it run. `from_stage` forces a stage and its successors to run again; `only` runs one
  stage and stops.
- **One run at a time.** The whole flow holds the warehouse's run lock (an OS file lock that
  dies with its process), and runs a killed process left `running` are marked `abandoned`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from prefect import flow
from prefect.cache_policies import CacheKeyFnPolicy
from prefect.filesystems import LocalFileSystem
from prefect.runtime import flow_run

from flows.server import (
    failure_shown_in_ui,
    named_flow_run,
    results_storage,
    ship_logs,
    shown_in_ui,
    warehouse_turn,
)
from groundwork.ingest.listing import CorpusListing, recent_listing
from groundwork.parameters import InvalidParameters, checked_config
from groundwork.run_artifacts import outcome_tags, run_tags
from groundwork.runtime.compiled import activate
from groundwork.stages import CODE_VERSION, STAGE_VERSIONS, STAGES
from groundwork.warehouse.errors import missing_file, out_of_space
from groundwork.warehouse.migrations import upgraded
from groundwork.warehouse.runs import (
    Outcome,
    finish_run,
    input_fingerprint,
    latest_run,
    model_outcome,
    prepared_run,
    record_unchanged,
    run_session,
    stage_inputs,
    start_run,
    unchanged_published,
)
from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.run_summary import RunSummary

log = logging.getLogger("groundwork")


class Stages:
    """Runs the flow's stages with chained cache keys, and times them."""

    def __init__(
        self,
        head: str,
        inputs: dict[str, str],
        from_stage: str | None,
        only: str | None,
        timings: dict[str, float],
        storage: LocalFileSystem,
    ) -> None:
        self.key = head
        self.inputs = inputs  # what a stage reads from outside the warehouse, by stage
        self.forced = STAGES.index(only or from_stage) if (only or from_stage) else len(STAGES)
        self.last = STAGES.index(only) if only else len(STAGES) - 1
        self.timings = timings  # filled in as stages finish
        self.storage = storage  # where the stages' return values are kept, for retries

    def wanted(self, stage: str) -> bool:
        """Whether the run goes as far as this stage (`only` stops after its stage)."""
        return STAGES.index(stage) <= self.last

    def __call__(self, stage: str, task: Any, *args: Any) -> Any:
        link = f"{self.key}|{stage}|{STAGE_VERSIONS[stage]}|{self.inputs.get(stage, '')}"
        self.key = hashlib.sha256(link.encode()).hexdigest()
        key = self.key
        started = time.perf_counter()
        result = task.with_options(
            cache_policy=CacheKeyFnPolicy(cache_key_fn=lambda *_: key),
            persist_result=True,
            result_storage=self.storage,
            refresh_cache=STAGES.index(stage) >= self.forced,
        )(*args)
        self.timings[stage] = round(self.timings.get(stage, 0) + time.perf_counter() - started, 3)
        return result


StageName = Literal[tuple(STAGES)]  # type: ignore[valid-type]  # a dropdown in the run form


@flow(name="groundwork-corpus", log_prints=False)
def corpus_run(
    corpus: str,
    warehouse: str = "warehouse",
    questions: str | None = None,
    config: RunConfig | None = None,
    profile: str | None = None,
    from_stage: StageName | None = None,
    only: StageName | None = None,
    run: str | None = None,
    force: bool = False,
) -> RunSummary:
    """Build the requirement register for a corpus folder, answer the questions (if any) from it,
    and publish everything if it passes review.

    Args:
        corpus: The folder of statutes, regulations and policies to read (Markdown, text, HTML,
            PDF, JSON, JSONL or Parquet), relative to the folder the deployment was made in.
        warehouse: The warehouse folder the run writes: groundwork.duckdb, tables/, reports/.
            Runs on one warehouse wait for each other (a global concurrency limit on it).
        questions: A questions file (YAML, CSV or JSONL) to answer from the register; none to
            build the register only.
        config: Run settings (backends, thresholds, workers); the defaults when not given.
        profile: A profile laid over the config: light, standard or strict claim checks
            (profiles/<name>.yaml), or a config file's path. It overrides only what it names.
        from_stage: Rerun an earlier run from this stage on (`run`, else the latest); the
            stages before it come back from the cache.
        only: Rerun just this stage of an earlier run, then stop.
        run: The run `from_stage` or `only` continue; the latest when not given.
        force: Run every stage even when the inputs are the published run's.
    """
    ship_logs()
    wh = Warehouse(Path(warehouse))
    with warehouse_turn(wh):
        # an older warehouse migrated in place (a deployment's run comes here first), in the
        # warehouse's turn: a run queued behind another must not open it while that one runs
        upgraded(wh)
        with run_session(wh, flow_run.get_id(), corpus):
            request = Request(
                Path(corpus), questions, config, profile, from_stage, only, run, force
            )
            return _locked_run(wh, request)


@dataclass(frozen=True)
class Request:
    """What a run was asked, as its parameters give it (checked before the first stage)."""

    corpus: Path
    questions: str | None
    config: RunConfig | None
    profile: str | None
    from_stage: str | None
    only: str | None
    run: str | None
    force: bool


def _locked_run(wh: Warehouse, asked: Request) -> RunSummary:
    clock = time.perf_counter()
    run = asked.run
    if (asked.from_stage or asked.only) and run is None:
        run = latest_run(wh) if wh.exists() else None
    run_id = prepared_run(wh, flow_run.get_id(), run)
    tags = run_tags(asked.corpus, asked.profile)
    named_flow_run(run_id, tags)
    timings: dict[str, float] = {}  # the stages', as far as they got
    try:
        config = checked_config(
            asked.corpus,
            Path(asked.questions) if asked.questions else None,
            asked.config,
            asked.profile,
        )
        if (asked.from_stage or asked.only) and run is None:
            raise InvalidParameters(
                "from_stage/only need an earlier run, and this warehouse has none"
            )
        summary = _attempt(asked, config, wh, run_id, clock, timings)
    except BaseException as exc:
        wh.discard_leftovers()  # on a full disk, this frees the space to record the failure
        full = out_of_space(exc)
        error = str(full or missing_file(exc) or _said(exc))
        outcome = Outcome("failed", timings=timings, error=error)
        finish_run(wh, run_id, flow_run.get_id(), str(asked.corpus), outcome)
        failure_shown_in_ui(run_id, error, [*tags, "outcome:failed"])
        if full is not None:
            raise full from exc  # one line from the CLI, as for every unusable warehouse
        raise
    with wh.connect(read_only=True) as con:
        rejections = query(con, "runs/rejections", {"run_id": summary.run_id}).fetchall()
    listed = [dict(zip(("path", "record", "reason", "detail"), r, strict=True)) for r in rejections]
    shown_in_ui(summary, listed, [*tags, *outcome_tags(summary)])
    return summary


def _said(exc: BaseException) -> str:
    """An error for `runs.error`: a user's mistake in its own words, anything else named."""
    return str(exc) if isinstance(exc, InvalidParameters) else f"{type(exc).__name__}: {exc}"


def _attempt(
    asked: Request,
    config: RunConfig,
    wh: Warehouse,
    run_id: str,
    clock: float,
    timings: dict[str, float],
) -> RunSummary:
    """The run, from its fingerprint on: unchanged, or its stages."""
    from groundwork.warehouse.publication import repaired_publication

    if wh.exists() and (repaired := repaired_publication(wh)):
        log.warning(
            "wrote the reports and snapshot of published run %s again: a run was killed "
            "after publishing it, before they were in place",
            repaired,
        )
    corpus, from_stage, only = asked.corpus, asked.from_stage, asked.only
    partial = bool(from_stage or only)
    questions_path = Path(asked.questions) if asked.questions else None
    listing = recent_listing(corpus, wh)
    inputs = stage_inputs(listing, questions_path)
    fingerprint = input_fingerprint(inputs["ingest"], inputs["questions"], config, CODE_VERSION)
    if not (partial or asked.force):
        reused = unchanged_published(wh, fingerprint)
        if reused is not None:
            seconds = time.perf_counter() - clock
            record_unchanged(
                wh, run_id, flow_run.get_id(), str(corpus), config, fingerprint, reused, seconds
            )
            summary = RunSummary.unchanged(run_id, reused[0], str(wh.root.resolve()), reused[1])
            return summary.model_copy(update={"timings": {"fingerprint": round(seconds, 3)}})
    start_run(wh, run_id, flow_run.get_id(), str(corpus), config, fingerprint, CODE_VERSION)
    stage = Stages(
        f"{run_id}|{config.digest()}", inputs, from_stage, only, timings, results_storage(wh)
    )
    return _stages(stage, wh, run_id, corpus, listing, questions_path, config)


def _stages(
    stage: Stages,
    wh: Warehouse,
    run_id: str,
    corpus: Path,
    listing: CorpusListing,
    questions: Path | None,
    config: RunConfig,
) -> RunSummary:
    from groundwork.warehouse.incremental import reuse_source

    t = stage_tasks()
    steps: list[tuple[str, Callable[[], Any]]] = [
        (
            "ingest",
            lambda: stage(
                "ingest", t["ingest"], wh, listing, run_id, config, stage.wanted("extract")
            ),
        ),
        ("chunk", lambda: stage("chunk", t["chunk"], wh, run_id, config, reused)),
        ("extract", lambda: stage("extract", t["extract"], wh, run_id, config)),
        ("register", lambda: stage("register", t["register"], wh, run_id, reused)),
        ("questions", lambda: stage("questions", t["questions"], wh, run_id, questions)),
        ("retrieve", lambda: stage("retrieve", t["retrieve"], wh, run_id, config)),
        ("verify", lambda: stage("verify", t["verify"], wh, run_id, out["retrieve"], config)),
        ("compose", lambda: stage("compose", t["compose"], wh, run_id, config, reused)),
        ("review", lambda: _reviewed(stage, wh, run_id, config, out)),
        (
            "publish",
            lambda: stage("publish", t["publish"], wh, run_id, out["review"], config.data_docs),
        ),
    ]
    out: dict[str, Any] = {}
    reused = reuse_source(wh, run_id, config, CODE_VERSION)
    for name, step in steps:
        if not stage.wanted(name):
            break
        out[name] = step()
    return _finished(wh, run_id, corpus, out, stage.timings)


def stage_tasks() -> dict[str, Any]:
    """The stages' tasks by name, imported on first use rather than at the top: a run with
    nothing to do decides so without their modules (pandera, bm25s, ...), and sooner, and the
    CLI imports them while Prefect's server starts. The compiled rules engine is switched on
    first, for a flow run in a Prefect worker's process as in the CLI's."""
    activate()
    from tasks.chunk import chunk_stage
    from tasks.compose import compose_stage
    from tasks.extract import extract_stage
    from tasks.ingest import ingest_task
    from tasks.publish import publish_stage
    from tasks.questions import questions_stage
    from tasks.register import register_stage
    from tasks.retrieve import retrieve_stage
    from tasks.verify import verify_stage

    return {
        "ingest": ingest_task,
        "chunk": chunk_stage,
        "extract": extract_stage,
        "register": register_stage,
        "questions": questions_stage,
        "retrieve": retrieve_stage,
        "verify": verify_stage,
        "compose": compose_stage,
        "publish": publish_stage,
    }


def _reviewed(stage: Stages, wh: Warehouse, run_id: str, config: RunConfig, out: dict) -> list:
    """Review, and one recomposition when only an answer gate failed."""
    from groundwork.quality.gates import failed_answer_checks
    from tasks.compose import compose_stage
    from tasks.review import review_stage

    results = stage("review", review_stage, wh, run_id, config)
    if failed_answer_checks(results):
        out["compose"] = compose_stage(wh, run_id, config)
        out["recomposed"] = True
        results = review_stage(wh, run_id, config)
    return results


def _finished(wh: Warehouse, run_id: str, corpus: Path, out: dict, timings: dict) -> RunSummary:
    """Close the run's row and summarise it."""
    from groundwork.quality.gates import failed_hard_checks

    ingested, registry = out["ingest"], out.get("register", {})
    n_questions, bad_questions = out.get("questions", (0, 0))
    outcome = out.get("compose", {"answered": 0, "no_evidence": 0})
    results = out.get("review", [])
    model_usage, model_rejections = model_outcome(wh, run_id)
    counts = {
        "files": ingested.files,
        "documents": ingested.documents,
        "changed_documents": ingested.changed,
        "rejected": ingested.rejected,
        "chunks": out.get("chunk", 0),
        "requirements": registry.get("active", 0),
        "new_ids": registry.get("new", 0),
        "retired_ids": registry.get("retired", 0),
        "chars": ingested.chars,
        "questions": n_questions,
        "rejected_questions": bad_questions,
        "recomposed": out.get("recomposed", False),
        "model_rejections": model_rejections,
        **outcome,
    }
    failed = [r["check_name"] for r in failed_hard_checks(results)]
    status = "published" if out.get("publish") else "partial" if "publish" not in out else "failed"
    error = f"hard checks failed: {', '.join(failed)}" if failed else None
    outcome = Outcome(status, ingested.corpus_hash, counts, timings, error)
    finish_run(wh, run_id, flow_run.get_id(), str(corpus), outcome)
    return RunSummary(
        run_id=run_id,
        status=status,
        warehouse=str(wh.root.resolve()),
        failed_checks=failed,
        timings=timings,
        model_usage=model_usage,
        **counts,
    )
