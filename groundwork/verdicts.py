"""How well a statement is supported by what it cites: one verdict per statement.

Kept in one small function because claim-level verification will replace the derivation; the
verdict values and the `statements.verdict` column stay.
"""

from __future__ import annotations

VERDICTS = ("SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED")
SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED = VERDICTS
FULL_SUPPORT = 0.9  # share of a claim's terms found in its cited quotes to count as supported


def statement_verdict(form: str, support: float) -> str:
    """The verdict on a statement, from how it was written and its term support.

    A quote is the cited text itself and a tension statement only names its two citations, so
    both are supported by construction. A model's claim is supported when nearly all its terms
    are in the cited quotes, and partial otherwise (claims under the composer's floor never
    become statements at all).
    """
    if form in ("quote", "tension"):
        return SUPPORTED
    return SUPPORTED if support >= FULL_SUPPORT else PARTIAL
