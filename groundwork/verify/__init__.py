"""Grounding verification: (question, requirement, chunk) pairs in, one verdict row each out.

The verifier is isolated: it sees the question, one requirement and the chunk it sits in, never
a draft answer. Backends, chosen by the run config's `verify`: the lexical gate (rules.py, the
default), the relevance model trained here (trained.py), and a served model (served.py). Each
rejects a quote that is not verbatim without asking anything.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from groundwork.backends import chosen

if TYPE_CHECKING:
    import pyarrow as pa

    from groundwork.llm.calls import ModelStage
    from groundwork.models.scores import PairCosines
    from groundwork.warehouse.store import Warehouse
    from schemas.config import RunConfig


class Verifier(Protocol):
    """Judges candidate pairs (columns of sql/answers/candidate_pairs.sql) into `verifications`
    rows (schemas/verifications.VERIFICATIONS_SCHEMA)."""

    def verifications(self, pairs: pa.Table) -> pa.Table: ...


def verifier(
    config: RunConfig,
    warehouse: Warehouse,
    run_id: str,
    idf: dict[str, float],
    scorer: PairCosines | None = None,
) -> AbstractContextManager[Verifier]:
    """The configured verification backend, open for the stage; `idf` weighs question terms,
    `scorer` is what the trained gate asks (the dense encoder's cosine)."""
    from groundwork.verify.rules import RulesVerifier

    def offline() -> Verifier:
        if config.verify != "trained":
            return RulesVerifier(idf)
        from groundwork.verify.trained import TrainedVerifier, model_gate

        if scorer is None:
            raise ValueError("the trained gate needs the dense encoder")
        return TrainedVerifier(idf, scorer, model_gate(scorer))

    def served(stage: ModelStage) -> Verifier:
        from groundwork.verify.served import ServedVerifier

        return ServedVerifier(stage, idf)

    return chosen("verify", config, warehouse, run_id, offline=offline, served=served)
