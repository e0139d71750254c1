"""The corpus flow's stages in order, and their code versions.

Kept free of heavy imports: a run whose inputs are unchanged needs only these to decide that it
has nothing to do, and should not pay for importing pandera and the stage modules.
"""

from __future__ import annotations

import hashlib

from groundwork.claims.model import MODEL as SUPPORT
from groundwork.extract.classifier import MODEL as REQUIREMENT
from groundwork.extract.deontic import EXTRACTOR_VERSION
from groundwork.models.inference import MODELS_DIR, ModelInfo, model_version
from groundwork.models.relevance import DENSE, relevance_version
from groundwork.warehouse.sqlfiles import SQL_DIR

STAGES = (
    "ingest",
    "chunk",
    "extract",
    "register",
    "questions",
    "retrieve",
    "verify",
    "compose",
    "review",
    "publish",
)
VERIFIER = "rules-verifier 1.8"  # the verifications.verifier value of the rules backend
COMPOSER = "extractive 1.4"  # the answers.composer value of the extractive composer


def _checks_version() -> str:
    """The review stage's version is its checks: editing a gate re-reviews."""
    texts = sorted(p.read_text() for p in (SQL_DIR / "checks").glob("*.sql"))
    return hashlib.sha256("\0".join(texts).encode()).hexdigest()[:12]


_GATE = ModelInfo.read(MODELS_DIR / DENSE)
# Bump a stage's version when its code changes what it writes: runs then redo that stage.
STAGE_VERSIONS = {
    "ingest": "2",  # 2: sidecars and folder defaults, PDF /Title, PDF lines unwrapped
    "chunk": "3",  # 3: a heading line ends a sentence (groundwork/text/sentences.py)
    "extract": f"{EXTRACTOR_VERSION} {model_version(REQUIREMENT)}",
    "register": "2",  # 2: only the candidates the extractor decided are requirements
    "questions": "1",
    # 5: hybrid by default (BM25 and dense candidates fused, k 10), top k distinct units
    "retrieve": f"5 {relevance_version()} {model_version(DENSE)}",
    # the trained gate: the dense encoder, its thresholds and its margin
    "verify": f"{VERIFIER} {model_version(DENSE)} {_GATE.threshold} {_GATE.margin} {_GATE.lexical}",
    "compose": f"{COMPOSER} {model_version(SUPPORT)}",
    "review": _checks_version(),
    "publish": "2",
}
CODE_VERSION = hashlib.sha256(repr(sorted(STAGE_VERSIONS.items())).encode()).hexdigest()[:16]
