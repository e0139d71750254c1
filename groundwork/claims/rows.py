"""A reviewed claim as rows of `claims`, `claim_numbers` and `citation_corrections`."""

from __future__ import annotations

from groundwork.claims.correct import Correction
from groundwork.claims.review import ReviewedClaim
from groundwork.claims.verdict import ClaimCheck


def claim_row(claim_id: str, statement_id: str, question_id: str, claim: ReviewedClaim) -> dict:
    return {
        "claim_id": claim_id,
        "statement_id": statement_id,
        "question_id": question_id,
        "ordinal": claim.ordinal,
        "text": claim.text,
        "published_text": claim.published,
        "requirement_ids": list(claim.cited),
        "depth": claim.depth,
        "verdict_before": claim.verdict_before,
        "verdict": claim.verdict,
        "reason": claim.check.reason,
        "issues": list(claim.check.issues),
        "support": claim.check.support,
        "action": claim.action,
    }


def claim_number_rows(claim_id: str, question_id: str, check: ClaimCheck) -> list[dict]:
    return [
        {
            "claim_id": claim_id,
            "question_id": question_id,
            "surface": n.surface,
            "kind": n.kind,
            "value": None if n.value is None else float(n.value),
            "unit": n.unit or None,
            "status": n.status,
            "quote_surface": n.quote_surface,
            "inputs": list(n.inputs),
            "calculation": n.calculation,
        }
        for n in check.numbers
    ]


def correction_row(claim_id: str, statement_id: str, question_id: str, fix: Correction) -> dict:
    return {
        "claim_id": claim_id,
        "statement_id": statement_id,
        "question_id": question_id,
        "action": fix.action,
        "from_requirement_id": fix.from_id,
        "to_requirement_id": fix.to_id,
        "verdict_before": fix.verdict_before,
        "verdict_after": fix.verdict_after,
        "score": fix.score,
        "reason": fix.reason,
    }
