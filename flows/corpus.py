"""The corpus flow: ingest -> chunk -> extract -> register -> questions -> retrieve -> verify ->
compose -> review (-> one recomposition if an answer gate failed) -> publish.

Orchestration only: each stage is a task in tasks/, and this flow wires them, times them and
records the run. A stage that raises marks the run failed and leaves the published run untouched.
"""

from __future__ import annotations

import time
from pathlib import Path

from prefect import flow
from prefect.runtime import flow_run

from groundwork.warehouse import Warehouse
from schemas.config import RunConfig
from schemas.run_summary import RunSummary
from tasks.chunk import chunk_stage
from tasks.compose import compose_stage
from tasks.extract import extract_stage
from tasks.ingest import ingest_task
from tasks.publish import failed_answer_checks, failed_hard_checks, publish_stage
from tasks.questions import questions_stage
from tasks.register import register_stage
from tasks.retrieve import retrieve_stage
from tasks.review import review_stage
from tasks.runs import finish_run, model_outcome, new_run_id, start_run
from tasks.verify import verify_stage


@flow(name="groundwork-corpus", log_prints=False)
def corpus_run(
    corpus: str,
    warehouse: str = "warehouse",
    questions: str | None = None,
    config: RunConfig | None = None,
) -> RunSummary:
    """Build the requirement register for a corpus folder, answer the questions (if any) from it,
    and publish everything if it passes review."""
    config = config or RunConfig()
    wh = Warehouse(Path(warehouse))
    run_id = new_run_id()
    start_run(wh, run_id, flow_run.get_id(), corpus, config)
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = round(now - clock, 3)
        clock = now

    ingested = None
    try:
        ingested = ingest_task(wh, Path(corpus), run_id, config)
        lap("ingest")
        n_chunks = chunk_stage(wh, run_id, config, ingested.documents)
        lap("chunk")
        extract_stage(wh, run_id, config)
        lap("extract")
        registry = register_stage(wh, run_id)
        lap("register")
        n_questions, bad_questions = questions_stage(
            wh, run_id, Path(questions) if questions else None
        )
        idf = retrieve_stage(wh, run_id, config.top_k)
        lap("retrieve")
        verify_stage(wh, run_id, idf, config)
        lap("verify")
        outcome = compose_stage(wh, run_id, config)
        lap("compose")
        results = review_stage(wh, run_id)
        recomposed = bool(failed_answer_checks(results))
        if recomposed:
            outcome = compose_stage(wh, run_id, config)
            results = review_stage(wh, run_id)
        lap("review")
        published = publish_stage(wh, run_id, results)
        lap("publish")
    except BaseException as exc:
        finish_run(
            wh,
            run_id,
            "failed",
            ingested.corpus_hash if ingested else None,
            {},
            timings,
            f"{type(exc).__name__}: {exc}",
        )
        raise
    counts = {
        "files": ingested.files,
        "documents": ingested.documents,
        "changed_documents": ingested.changed,
        "rejected": ingested.rejected,
        "chunks": n_chunks,
        "requirements": registry["active"],
        "new_ids": registry["new"],
        "retired_ids": registry["retired"],
        "chars": ingested.chars,
        "questions": n_questions,
        "rejected_questions": bad_questions,
        "recomposed": recomposed,
        **outcome,
    }
    model_usage, model_rejections = model_outcome(wh, run_id)
    counts["model_rejections"] = model_rejections
    status = "published" if published else "failed"
    failed = [r["check_name"] for r in failed_hard_checks(results)]
    finish_run(
        wh,
        run_id,
        status,
        ingested.corpus_hash,
        counts,
        timings,
        f"hard checks failed: {', '.join(failed)}" if failed else None,
    )
    return RunSummary(
        run_id=run_id,
        status=status,
        warehouse=str(wh.root.resolve()),
        files=ingested.files,
        documents=ingested.documents,
        changed_documents=ingested.changed,
        rejected=ingested.rejected,
        chunks=n_chunks,
        requirements=registry["active"],
        new_ids=registry["new"],
        retired_ids=registry["retired"],
        failed_checks=failed,
        timings=timings,
        questions=n_questions,
        rejected_questions=bad_questions,
        answered=outcome["answered"],
        no_evidence=outcome["no_evidence"],
        model_usage=model_usage,
        model_rejections=model_rejections,
    )
