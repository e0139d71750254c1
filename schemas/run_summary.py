"""What a corpus run returns: the facts the end-of-run summary prints and the exit code uses."""

from pydantic import BaseModel


class RunSummary(BaseModel):
    run_id: str
    status: str  # published | failed
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
    questions: int = 0
    rejected_questions: int = 0
    answered: int = 0
    no_evidence: int = 0
    model_usage: dict[str, dict] = {}  # per model stage: calls, cache hits, tokens, ...
    model_rejections: int = 0  # rows this run added to model_rejections
