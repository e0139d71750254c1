"""The claim-support model (models/support, trained by training/support.py) and how its reading
joins the rule checks.

The rules name reasons a reader can check ("modality changed: may vs must", "deadline differs:
90 days vs 60 days"); what no rule lists (a paraphrase that keeps the rule, "is left to the
Secretary's discretion" for "will conduct") only a reader of meaning catches. So a verdict with
a named conflict or a named missing qualifier stands, and where the rules found none the
model's verdict replaces theirs when it is confident (CONFIDENT, chosen on the held-back
labelled pairs), with the model's reading as the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np

from groundwork.claims.verdict import (
    CONTRADICTED,
    PARTIAL,
    SUPPORTED,
    ClaimCheck,
    checked_claim,
    claim_depth,
)
from groundwork.models.inference import MODELS_DIR, OnnxModel
from schemas.config import ClaimChecks

MODEL = "support"
CONFIDENT = 0.9  # the model's top probability at which it overrides rules that named nothing
_NAMED = (CONTRADICTED, PARTIAL)  # verdicts whose rule names the conflict or what was dropped


def model_text(claim: str, evidence: str) -> tuple[str, str]:
    """The pair as the model reads it, in training and at run time: whitespace collapsed."""
    return " ".join(claim.split()), " ".join(evidence.split())


@dataclass(frozen=True, slots=True)
class Reading:
    """The model's verdict on one pair: its most probable label, that probability, and the
    probability that the evidence supports the claim."""

    label: str
    probability: float
    supported_probability: float

    @property
    def supported(self) -> bool:
        """Supported or not, as a binary decision (SUPPORTED is the most probable verdict)."""
        return self.label == SUPPORTED


class SupportModel(OnnxModel):
    """The four-way claim-support classifier."""

    def readings(self, pairs: Sequence[tuple[str, str]]) -> list[Reading]:
        """One reading per (claim, evidence) pair, in order."""
        if not pairs:
            return []
        logits = self.outputs([model_text(c, e) for c, e in pairs]).astype(np.float64)
        probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        labels = self.info.labels
        supported = labels.index(SUPPORTED)
        return [
            Reading(
                labels[int(row.argmax())],
                round(float(row.max()), 6),
                round(float(row[supported]), 6),
            )
            for row in probabilities
        ]


@cache
def support_model(folder: Path = MODELS_DIR / MODEL) -> SupportModel:
    """The committed claim-support model, loaded once per process."""
    return SupportModel(folder)


@cache
def _reading(claim: str, evidence: str) -> Reading:
    """The committed model's reading of one pair, once per process (citation correction asks
    about the same pairs again)."""
    return support_model().readings([(claim, evidence)])[0]


def claim_check(
    claim: str, quote: str, settings: ClaimChecks, depth: str | None = None
) -> ClaimCheck:
    """The verdict a run gives a claim against one cited quote: the rule checks at `depth`
    (by default the one `settings.depth` routes the claim to), joined with the model's reading
    when `settings.model` is `trained`. The pipeline and `groundwork judge claims` both call
    this, so both give a pair the same verdict."""
    if depth is None:
        depth = claim_depth(claim) if settings.depth == "routed" else settings.depth
    check = checked_claim(claim, quote, depth, settings.numeric_tolerance)
    if settings.model != "trained":
        return check
    return combined_verdict(check, _reading(claim, quote))


def combined_verdict(check: ClaimCheck, reading: Reading) -> ClaimCheck:
    """The rules' check with the model's reading joined (see the module docstring)."""
    if check.verdict in _NAMED or reading.probability < CONFIDENT:
        return check
    if reading.label == check.verdict:
        return check
    reason = (
        f"The claim-support model reads the claim as {reading.label} "
        f"(probability {reading.probability:.2f}); the rules found {check.verdict}."
    )
    return replace(check, verdict=reading.label, reason=reason)
