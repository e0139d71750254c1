"""Hedges: words by which a claim says it is not the whole rule.

"Generally, a covered entity must ..." announces that exceptions exist without naming them, so
an auditor does not fault it for leaving out "except as provided in § 164.412". A hedge does not
excuse a dropped condition, threshold or deadline, or a wrong number, actor or modality
(data/labels/README.md, "Hedges"). "Should" and "may need to" are hedges of a duty, not
permissions (groundwork.claims.modality reads them as obligations).
"""

from __future__ import annotations

import re

from groundwork.wording.lists import entries

HEDGES = entries("hedges")
# "knew or should have known" states a standard of knowledge, not a softened duty.
_NOT_HEDGES = r"(?!should\s+have\s+(?:known|been|[a-z]+ed)\b)"
_HEDGE = re.compile(
    rf"\b{_NOT_HEDGES}(?:" + "|".join(re.escape(h).replace(r"\ ", r"\s+") for h in HEDGES) + r")\b",
    re.IGNORECASE,
)


_OPENING = re.compile(
    r"^\s*(?:(?:" + "|".join(re.escape(h).replace(r"\ ", r"\s+") for h in HEDGES) + r")\s*,"
    r"|it\s+(?:appears|seems)\s+that\b)\s*",
    re.IGNORECASE,
)


def without_opening_hedge(claim: str) -> str:
    """The claim without the hedge that opens it ("As far as I can tell, the plan must" -> "the
    plan must"), so that the hedge is not read as the clause's subject."""
    return _OPENING.sub("", claim, count=1)


def hedges_in(claim: str) -> list[str]:
    """The hedges a claim uses, as written, in order."""
    return [m.group(0) for m in _HEDGE.finditer(claim)]
