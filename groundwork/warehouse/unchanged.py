"""The nightly no-op before Prefect: `groundwork run` on inputs equal to the published run's.

Most nightly runs find nothing changed. The flow decides so too, but only after Prefect has
started its ephemeral server and a flow run, most of a no-op run's time (BENCHMARKS.md, "Bench
corpus: unchanged rerun"). The CLI asks here first: with the warehouse's run lock held, it takes
the corpus's fingerprint (file stats, hashing only files whose size or mtime changed) and, when
it equals the published run's, records the run as `unchanged` exactly as the flow would, less
the flow run's ID, which there is none of. Anything else goes to the flow, which knows how to
handle it: a change, a busy or damaged warehouse (it queues or says so), a publication whose
reports and snapshot a killed run left unwritten (it repairs them), a bad parameter. The flow
takes the listing made here (ingest.listing.hand_over) instead of walking the corpus again.

Only light modules are imported here (no Prefect, pandas or pandera): that is the point.
"""

from __future__ import annotations

import time
from pathlib import Path

from groundwork.ingest.listing import CorpusMissing, corpus_listing, hand_over
from groundwork.stages import CODE_VERSION
from groundwork.warehouse.errors import WarehouseUnusable
from groundwork.warehouse.runs import (
    input_fingerprint,
    prepared_run,
    record_noted_attempts,
    record_unchanged,
    stage_inputs,
    unchanged_published,
)
from groundwork.warehouse.snapshot import stale_snapshot
from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.run_summary import RunSummary


def unchanged_run(
    corpus: Path, warehouse: Warehouse, questions: Path | None, config: RunConfig
) -> RunSummary | None:
    """The recorded `unchanged` run when corpus, questions and config are the published run's
    and its publication is whole; None when the flow must run (to work, or to say why not)."""
    clock = time.perf_counter()
    if not warehouse.exists() or (questions is not None and not questions.is_file()):
        return None
    try:
        with warehouse.run_lock("groundwork run (fingerprint)"), warehouse.session():
            record_noted_attempts(warehouse)
            with warehouse.connect(read_only=True) as con:
                published = query(con, "runs/published").fetchone()
            if published is None or stale_snapshot(warehouse, published[0]):
                return None
            run_id = prepared_run(warehouse, None, None)
            listing = corpus_listing(corpus, warehouse)
            inputs = stage_inputs(listing, questions)
            fingerprint = input_fingerprint(
                inputs["ingest"], inputs["questions"], config, CODE_VERSION
            )
            reused = unchanged_published(warehouse, fingerprint)
            if reused is None:
                hand_over(listing, corpus, warehouse)  # for the flow, which lists it at once
                return None
            seconds = time.perf_counter() - clock
            record_unchanged(
                warehouse, run_id, None, str(corpus), config, fingerprint, reused, seconds
            )
    except (WarehouseUnusable, CorpusMissing):
        return None
    summary = RunSummary.unchanged(run_id, reused[0], str(warehouse.root.resolve()), reused[1])
    return summary.model_copy(update={"timings": {"fingerprint": round(seconds, 3)}})
