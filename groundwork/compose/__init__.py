"""Answer composition: each question's verified evidence in, its answer out.

A `Composer` writes one question's answer (draft.py holds what every composer shares). Backends,
chosen by the run config's `compose`: the extractive composer (extractive.py), which quotes
verified requirements verbatim, and a served model (served.py), whose tagged blocks are
validated and whose claims are checked before anything is published. tables.py drives a composer
over a run's questions; reuse.py copies the answers whose inputs did not change.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from groundwork.backends import chosen
from groundwork.compose.draft import Composer

if TYPE_CHECKING:
    import pyarrow as pa

    from groundwork.llm.calls import ModelStage
    from groundwork.warehouse.store import Warehouse
    from schemas.config import RunConfig

__all__ = ["Composer", "composer"]


def composer(
    config: RunConfig, warehouse: Warehouse, run_id: str, questions: pa.Table, evidence: pa.Table
) -> AbstractContextManager[Composer]:
    """The configured composer, open for the stage. A served model is asked about every one of
    `questions` with `evidence` at once (in parallel, cached) before the first answer is
    written."""
    from groundwork.compose.extractive import composed

    def served(stage: ModelStage) -> Composer:
        from groundwork.compose.served import model_composer
        from groundwork.compose.tables import evidence_by_question

        return model_composer(stage, questions.to_pylist(), evidence_by_question(evidence))

    return chosen("compose", config, warehouse, run_id, offline=lambda: composed, served=served)
