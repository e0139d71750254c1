"""One statement reviewed claim by claim: split, check, correct citations, soften.

Checks run per claim and per cited quote, isolated from the answer (the checker sees one claim
and one quote). A verbatim quote is not split: it is its own evidence, and splitting it would
only make parts that lack its qualifiers. Template statements (tensions) restate the register's
modality of each requirement they cite and are not paraphrases to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from groundwork.claims.correct import RANK, Correction, Evidence, corrected_citations
from groundwork.claims.decompose import atomic_claims
from groundwork.claims.model import claim_check
from groundwork.claims.soften import softened
from groundwork.claims.verdict import ClaimCheck, claim_depth
from schemas.config import ClaimChecks

TEMPLATE_REASON = "template statement: each cited requirement's modality is from the register"


@dataclass(frozen=True)
class ReviewedClaim:
    ordinal: int
    text: str
    published: str | None  # None: removed
    cited: dict[str, str]  # requirement ID -> verdict, after correction
    depth: str
    verdict_before: str
    check: ClaimCheck  # against the best final citation
    action: str

    @property
    def verdict(self) -> str:
        return self.check.verdict


@dataclass
class ReviewedStatement:
    claims: list[ReviewedClaim] = field(default_factory=list)
    corrections: list[tuple[int, Correction]] = field(default_factory=list)
    alternates: set[str] = field(default_factory=set)

    @property
    def published(self) -> list[ReviewedClaim]:
        return [c for c in self.claims if c.published is not None]

    @property
    def text(self) -> str:
        """The statement's published body: its published claims, in order."""
        return " ".join(c.published for c in self.published if c.published)

    @property
    def requirement_ids(self) -> list[str]:
        """The published claims' citations, in first-cited order."""
        return list(dict.fromkeys(rid for c in self.published for rid in c.cited))

    @property
    def verdict(self) -> str:
        """The weakest verdict among the published claims (what a reader must be told)."""
        return min((c.verdict for c in self.published), key=RANK.__getitem__, default="SUPPORTED")


def template_check() -> ClaimCheck:
    return ClaimCheck("SUPPORTED", TEMPLATE_REASON, (), 1.0, ())


def reviewed_claim(
    ordinal: int, text: str, cited: list[Evidence], pool: list[Evidence], settings: ClaimChecks
) -> tuple[ReviewedClaim, list[Correction]]:
    """One claim checked against each citation, its citations corrected, the result softened."""
    depth = claim_depth(text) if settings.depth == "routed" else settings.depth
    checks: dict[str, ClaimCheck] = {}

    def verdict_of(evidence: Evidence) -> str:
        checks[evidence.requirement_id] = claim_check(text, evidence.text, settings, depth)
        return checks[evidence.requirement_id].verdict

    original = {e.requirement_id: verdict_of(e) for e in cited}
    before = max(original.values(), key=RANK.__getitem__)
    final, corrections = (
        corrected_citations(text, original, pool, verdict_of)
        if settings.correct_citations
        else (original, [])
    )
    best = max(final, key=lambda rid: RANK[final[rid]])
    published, action = softened(text, final[best], settings.softening)
    claim = ReviewedClaim(ordinal, text, published, final, depth, before, checks[best], action)
    return claim, corrections


def reviewed_statement(
    form: str, body: str, cited: list[Evidence], pool: list[Evidence], settings: ClaimChecks
) -> ReviewedStatement:
    """A statement's claims reviewed. `body` is the statement without its [REQ-...] markers."""
    review = ReviewedStatement()
    if form == "tension":
        ids = {e.requirement_id: "SUPPORTED" for e in cited}
        review.claims.append(
            ReviewedClaim(1, body, body, ids, "light", "SUPPORTED", template_check(), "kept")
        )
        return review
    parts = (
        [a.text for a in atomic_claims(body)] if settings.decompose and form == "claim" else [body]
    )
    for ordinal, text in enumerate(parts, start=1):
        claim, corrections = reviewed_claim(ordinal, text, cited, pool, settings)
        review.claims.append(claim)
        review.corrections.extend((ordinal, c) for c in corrections)
        review.alternates.update(c.to_id for c in corrections if c.action == "ADD_ALTERNATE")
    return review
