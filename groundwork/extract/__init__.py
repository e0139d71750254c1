"""Requirement extraction: chunks of whole documents in, requirement candidates out.

Backends, chosen by the run config's `extract`: the offline rules (rules.py, built on the
clause finder in deontic.py), the rules with the requirement classifier trained here deciding
which candidates are requirements (trained.py), and a served model (served.py), whose quotes
the rules' validators check. Each is an `Extractor`; the stage (tasks/extract.py) reads the
chunks, calls it, validates the contract and writes the candidates.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from groundwork.backends import chosen
from schemas.config import ModelBackend

if TYPE_CHECKING:
    import pyarrow as pa

    from groundwork.llm.calls import ModelStage
    from groundwork.warehouse.store import Warehouse
    from schemas.config import RunConfig


class Extractor(Protocol):
    """Finds the requirement candidates (columns of schemas/requirements.CANDIDATES_SCHEMA) of
    chunk rows that hold whole documents, in document order."""

    # True when the backend is pure and picklable: the stage then maps it over worker processes
    in_processes: bool

    def candidates(self, chunks: pa.Table) -> pa.Table: ...


def extractor(
    config: RunConfig, warehouse: Warehouse, run_id: str
) -> AbstractContextManager[Extractor]:
    """The configured extraction backend, open for the stage."""

    def offline() -> Extractor:
        return _offline(config)

    def served(stage: ModelStage) -> Extractor:
        from groundwork.extract.served import ServedExtractor, document_citations

        return ServedExtractor(stage, document_citations(warehouse))

    return chosen("extract", config, warehouse, run_id, offline=offline, served=served)


def worker_extractor(config: RunConfig) -> Extractor | None:
    """The configured backend when worker processes can run it with nothing opened for it (the
    rules, or the rules and the classifier trained here), so that ingest's workers extract what
    they parse; None for a served model, which runs in the stage, in its open model stage."""
    if isinstance(config.extract, ModelBackend):
        return None
    backend = _offline(config)
    return backend if backend.in_processes else None


def _offline(config: RunConfig) -> Extractor:
    """The backend that runs here, not served."""
    if config.extract == "trained":
        from groundwork.extract.trained import TrainedExtractor

        return TrainedExtractor()
    from groundwork.extract.rules import RulesExtractor

    return RulesExtractor()
