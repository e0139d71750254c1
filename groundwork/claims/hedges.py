"""Hedges: words by which a claim says it is not the whole rule.

"Generally, a covered entity must ..." announces that exceptions exist without naming them, so
an auditor does not fault it for leaving out "except as provided in § 164.412". A hedge does not
excuse a dropped condition, threshold or deadline, or a wrong number, actor or modality
(data/labels/README.md, "Hedges"). "Should" and "may need to" are hedges of a duty, not
permissions (groundwork.claims.modality reads them as obligations).
"""

from __future__ import annotations

import re

HEDGES = (
    "generally", "typically", "usually", "normally", "ordinarily", "in general", "as a rule",
    "in most cases", "for the most part", "often", "mostly", "broadly", "largely", "likely",
    "probably", "possibly", "perhaps", "presumably", "apparently", "arguably", "it appears",
    "it seems", "appears to", "seems to", "may need to", "might need to", "should",
    "as far as i can tell", "i believe", "i think",
)  # fmt: skip
# "knew or should have known" states a standard of knowledge, not a softened duty.
_NOT_HEDGES = r"(?!should\s+have\s+(?:known|been|[a-z]+ed)\b)"
_HEDGE = re.compile(
    rf"\b{_NOT_HEDGES}(?:" + "|".join(re.escape(h).replace(r"\ ", r"\s+") for h in HEDGES) + r")\b",
    re.IGNORECASE,
)


def hedges_in(claim: str) -> list[str]:
    """The hedges a claim uses, as written, in order."""
    return [m.group(0) for m in _HEDGE.finditer(claim)]
