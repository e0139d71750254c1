"""The flow as the tests run it: one worker and no Data Docs job unless a test asks (a
background job still writing would race a test's next step; tests/quality/test_data_docs.py reads
the session's Data Docs)."""

from __future__ import annotations

from pathlib import Path

from flows.corpus import corpus_run
from schemas.config import RunConfig
from schemas.run_summary import RunSummary

QUIET = RunConfig(workers=1, data_docs=False)


def flow_run(
    corpus: Path,
    warehouse: Path,
    questions: Path | None = None,
    config: RunConfig = QUIET,
    **options,
) -> RunSummary:
    """The summary of one run of the corpus flow; `options` are the flow's own (force,
    from_stage, only)."""
    return corpus_run(
        str(corpus), str(warehouse), str(questions) if questions else None, config, **options
    )
