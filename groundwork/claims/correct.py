"""Citation correction: for a claim its citation does not support, a better verified requirement.

Only the question's own verified requirements are candidates, so a correction can never cite
something the grounding gate did not pass. They are ranked by BM25 against the claim and the best
few are checked like the original citation; the first that supports the claim wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rank_bm25 import BM25Okapi

from groundwork.text.terms import terms

CANDIDATES = 3  # pool requirements checked per claim, best BM25 first
RANK = {"CONTRADICTED": 0, "UNSUPPORTED": 1, "PARTIAL": 2, "SUPPORTED": 3}


@dataclass(frozen=True)
class Evidence:
    """A verified requirement as a claim checker sees it: its ID and its verbatim text."""

    requirement_id: str
    text: str


@dataclass(frozen=True)
class Correction:
    action: str  # REPLACE | ADD_ALTERNATE | REMOVE
    from_id: str | None
    to_id: str | None
    verdict_before: str
    verdict_after: str
    score: float | None
    reason: str


def _better(found: str, best: str) -> bool:
    """Whether a candidate's verdict earns it a place: full support always; partial support
    only where the citation does not address the claim at all (a contradicted claim is wrong,
    and a partly fitting requirement would not make it right)."""
    return found == "SUPPORTED" or (found == "PARTIAL" and best == "UNSUPPORTED")


def ranked_candidates(
    claim: str, pool: list[Evidence], cited: set[str]
) -> list[tuple[Evidence, float]]:
    """Pool requirements not cited yet, best BM25 match to the claim first (score above 0)."""
    others = [e for e in pool if e.requirement_id not in cited]
    query = terms(claim)
    if not others or not query:
        return []
    scores = BM25Okapi([terms(e.text) or ["_"] for e in others]).get_scores(query)
    ranked = sorted(zip(others, scores, strict=True), key=lambda pair: -pair[1])
    return [(e, float(s)) for e, s in ranked[:CANDIDATES] if s > 0]


def corrected_citations(
    claim: str,
    verdicts: dict[str, str],
    pool: list[Evidence],
    verdict_of: Callable[[Evidence], str],
) -> tuple[dict[str, str], list[Correction]]:
    """The claim's citations after correction (requirement ID -> verdict) and what was done.

    `verdicts` holds the verdict of each original citation; `verdict_of` checks a candidate.
    """
    best = max(verdicts.values(), key=RANK.__getitem__)
    if best == "SUPPORTED":
        kept = {rid: v for rid, v in verdicts.items() if RANK[v] >= RANK["PARTIAL"]}
        return kept, [
            Correction(
                "REMOVE",
                rid,
                None,
                v,
                "SUPPORTED",
                None,
                f"another citation supports the claim; this one is {v.lower()}",
            )
            for rid, v in verdicts.items()
            if rid not in kept
        ]
    for candidate, score in ranked_candidates(claim, pool, set(verdicts)):
        found = verdict_of(candidate)
        if not _better(found, best):
            continue
        new_id = candidate.requirement_id
        if best == "PARTIAL":
            return {**verdicts, new_id: found}, [
                Correction(
                    "ADD_ALTERNATE",
                    None,
                    new_id,
                    best,
                    found,
                    score,
                    "the citation supports the claim only partly; this one fully",
                )
            ]
        return {new_id: found}, [
            Correction(
                "REPLACE",
                rid,
                new_id,
                v,
                found,
                score,
                f"the citation is {v.lower()} for the claim; this one is {found.lower()}",
            )
            for rid, v in verdicts.items()
        ]
    return verdicts, []
