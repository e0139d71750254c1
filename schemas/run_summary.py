"""What a corpus run returns: the facts the end-of-run summary prints and the exit code uses."""

from __future__ import annotations

from pydantic import BaseModel


class RunSummary(BaseModel):
    run_id: str
    status: str  # published | failed | partial (--only) | unchanged (nothing to do)
    warehouse: str
    files: int
    documents: int
    changed_documents: int
    rejected: int
    chunks: int
    requirements: int
    new_ids: int
    retired_ids: int
    failed_checks: list[str]
    timings: dict[str, float]
    chars: int = 0
    questions: int = 0
    rejected_questions: int = 0
    answered: int = 0
    no_evidence: int = 0
    answers_copied: int = 0  # answers whose inputs were as in the reused run, copied from it
    recomposed: bool = False
    model_usage: dict[str, dict] = {}  # per model stage: calls, cache hits, tokens, ...
    model_rejections: int = 0  # rows this run added to model_rejections
    reused_run: str | None = None  # for an unchanged run: the published run it left in place

    @classmethod
    def unchanged(cls, run_id: str, reused: str, warehouse: str, counts: dict) -> RunSummary:
        """A run that found its inputs identical to the published run's."""
        return cls(
            run_id=run_id,
            status="unchanged",
            warehouse=warehouse,
            failed_checks=[],
            timings={},
            reused_run=reused,
            **{**counts, "changed_documents": 0, "new_ids": 0, "retired_ids": 0},
        )
