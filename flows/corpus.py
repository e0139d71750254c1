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
from pathlib import Path
from typing import Any

from prefect import flow
from prefect.cache_policies import CacheKeyFnPolicy
from prefect.runtime import flow_run
from prefect.utilities.annotations import quote

from groundwork.runs import (
    CorpusSnapshot,
    Outcome,
    corpus_digest,
    corpus_snapshot,
    finish_run,
    input_fingerprint,
    latest_run,
    model_outcome,
    prepared_run,
    questions_digest,
    record_unchanged,
    run_session,
    start_run,
    unchanged_published,
)
from groundwork.stages import CODE_VERSION, STAGE_VERSIONS, STAGES
from groundwork.warehouse import Warehouse, missing_file, out_of_space
from schemas.config import RunConfig, profile_config
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
    ) -> None:
        self.key = head
        self.inputs = inputs  # what a stage reads from outside the warehouse, by stage
        self.forced = STAGES.index(only or from_stage) if (only or from_stage) else len(STAGES)
        self.last = STAGES.index(only) if only else len(STAGES) - 1
        self.timings = timings  # filled in as stages finish

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
            refresh_cache=STAGES.index(stage) >= self.forced,
        )(*args)
        self.timings[stage] = round(self.timings.get(stage, 0) + time.perf_counter() - started, 3)
        return result


@flow(name="groundwork-corpus", log_prints=False)
def corpus_run(
    corpus: str,
    warehouse: str = "warehouse",
    questions: str | None = None,
    config: RunConfig | None = None,
    profile: str | None = None,
    from_stage: str | None = None,
    only: str | None = None,
    run: str | None = None,
    force: bool = False,
) -> RunSummary:
    """Build the requirement register for a corpus folder, answer the questions (if any) from it,
    and publish everything if it passes review.

    `profile` names a config file (profiles/<name>.yaml, or a path) laid over `config` (or the
    defaults): it overrides the settings it names and inherits the rest.
    `from_stage` / `only` rerun part of a run: `run`, or the latest one when not given.
    `force` runs every stage even when the inputs equal the published run's.
    """
    for stage in (from_stage, only):
        if stage is not None and stage not in STAGES:
            raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(STAGES)}")
    config = profile_config(profile, config)
    wh = Warehouse(Path(warehouse))
    with run_session(wh, flow_run.get_id(), corpus):
        return _locked_run(Path(corpus), wh, questions, config, from_stage, only, run, force)


def _locked_run(
    corpus: Path,
    wh: Warehouse,
    questions: str | None,
    config: RunConfig,
    from_stage: str | None,
    only: str | None,
    run: str | None,
    force: bool,
) -> RunSummary:
    clock = time.perf_counter()
    partial = bool(from_stage or only)
    if partial and run is None:
        run = latest_run(wh) if wh.exists() else None
        if run is None:
            raise ValueError("--from-stage/--only need an earlier run, and this warehouse has none")
    run_id = prepared_run(wh, flow_run.get_id(), run)
    timings: dict[str, float] = {}  # the stages', as far as they got
    try:
        return _attempt(
            corpus, wh, run_id, questions, config, from_stage, only, force, clock, timings
        )
    except BaseException as exc:
        wh.discard_leftovers()  # on a full disk, this frees the space to record the failure
        full = out_of_space(exc)
        error = str(full or missing_file(exc) or f"{type(exc).__name__}: {exc}")
        outcome = Outcome("failed", timings=timings, error=error)
        finish_run(wh, run_id, flow_run.get_id(), str(corpus), outcome)
        if full is not None:
            raise full from exc  # one line from the CLI, as for every unusable warehouse
        raise


def _attempt(
    corpus: Path,
    wh: Warehouse,
    run_id: str,
    questions: str | None,
    config: RunConfig,
    from_stage: str | None,
    only: str | None,
    force: bool,
    clock: float,
    timings: dict[str, float],
) -> RunSummary:
    """The run, from its fingerprint on: unchanged, or its stages."""
    from groundwork.publication import repaired_publication

    if wh.exists() and (repaired := repaired_publication(wh)):
        log.warning(
            "wrote the reports and snapshot of published run %s again: a run was killed "
            "after publishing it, before they were in place",
            repaired,
        )
    partial = bool(from_stage or only)
    questions_path = Path(questions) if questions else None
    snapshot = corpus_snapshot(corpus, wh)
    inputs = {
        "ingest": corpus_digest(snapshot.digests, snapshot.skipped),
        "questions": questions_digest(questions_path),
    }
    fingerprint = input_fingerprint(inputs["ingest"], inputs["questions"], config, CODE_VERSION)
    if not (partial or force):
        reused = unchanged_published(wh, fingerprint)
        if reused is not None:
            seconds = time.perf_counter() - clock
            record_unchanged(
                wh, run_id, flow_run.get_id(), str(corpus), config, fingerprint, reused, seconds
            )
            summary = RunSummary.unchanged(run_id, reused[0], str(wh.root.resolve()), reused[1])
            return summary.model_copy(update={"timings": {"fingerprint": round(seconds, 3)}})
    start_run(wh, run_id, flow_run.get_id(), str(corpus), config, fingerprint, CODE_VERSION)
    stage = Stages(f"{run_id}|{config.digest()}", inputs, from_stage, only, timings)
    return _stages(stage, wh, run_id, corpus, snapshot, questions_path, config)


def _stages(
    stage: Stages,
    wh: Warehouse,
    run_id: str,
    corpus: Path,
    snapshot: CorpusSnapshot,
    questions: Path | None,
    config: RunConfig,
) -> RunSummary:
    # The stage modules (pandera, bm25s, ...) are imported here, not at the top: a run with
    # nothing to do decides so without them, in a second or two less.
    from groundwork.reuse import reuse_source
    from tasks.chunk import chunk_stage
    from tasks.compose import compose_stage
    from tasks.extract import extract_stage
    from tasks.ingest import ingest_task
    from tasks.publish import publish_stage
    from tasks.questions import questions_stage
    from tasks.register import register_stage
    from tasks.retrieve import retrieve_stage
    from tasks.verify import verify_stage

    steps: list[tuple[str, Callable[[], Any]]] = [
        # quote(): Prefect would walk the 94,622 digests looking for futures, for seconds
        ("ingest", lambda: stage("ingest", ingest_task, wh, quote(snapshot), run_id, config)),
        ("chunk", lambda: stage("chunk", chunk_stage, wh, run_id, config, reused)),
        ("extract", lambda: stage("extract", extract_stage, wh, run_id, config)),
        ("register", lambda: stage("register", register_stage, wh, run_id, reused)),
        ("questions", lambda: stage("questions", questions_stage, wh, run_id, questions)),
        ("retrieve", lambda: stage("retrieve", retrieve_stage, wh, run_id, config)),
        ("verify", lambda: stage("verify", verify_stage, wh, run_id, out["retrieve"], config)),
        ("compose", lambda: stage("compose", compose_stage, wh, run_id, config, reused)),
        ("review", lambda: _reviewed(stage, wh, run_id, config, out)),
        (
            "publish",
            lambda: stage("publish", publish_stage, wh, run_id, out["review"], config.data_docs),
        ),
    ]
    out: dict[str, Any] = {}
    reused = reuse_source(wh, run_id, config, CODE_VERSION)
    for name, step in steps:
        if not stage.wanted(name):
            break
        out[name] = step()
    return _finished(wh, run_id, corpus, out, stage.timings)


def _reviewed(stage: Stages, wh: Warehouse, run_id: str, config: RunConfig, out: dict) -> list:
    """Review, and one recomposition when only an answer gate failed."""
    from groundwork.review import failed_answer_checks
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
    from groundwork.review import failed_hard_checks

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
