"""The report's three verdict categories, and the counts the summaries show."""

from __future__ import annotations

from dataclasses import dataclass

from schemas.statements import statement_verdict

CATEGORIES = {
    "SUPPORTED": "supported",
    "PARTIAL": "partial",
    "UNSUPPORTED": "unsupported",
    "CONTRADICTED": "unsupported",
}
LABELS = {
    "supported": "Supported",
    "partial": "Partially supported",
    "unsupported": "Not supported",
}
WARNING_SHARE = 0.20  # an answer with a larger share of unsupported statements is flagged


def statement_category(row: dict) -> str:
    """supported, partial or unsupported. Runs from before the verdict column get the verdict
    the composer would have given them."""
    verdict = row.get("verdict") or statement_verdict(row["form"], row["support"])
    return CATEGORIES[verdict]


@dataclass(frozen=True)
class VerdictCounts:
    """How many statements fall in each category."""

    supported: int = 0
    partial: int = 0
    unsupported: int = 0

    @property
    def total(self) -> int:
        return self.supported + self.partial + self.unsupported

    def share(self, category: str) -> float:
        """The category's share of all statements (0 when there are none)."""
        return getattr(self, category) / self.total if self.total else 0.0

    @property
    def warns(self) -> bool:
        """More than WARNING_SHARE of the statements are not supported."""
        return self.share("unsupported") > WARNING_SHARE


def verdict_counts(statements: list[dict]) -> VerdictCounts:
    """The category counts of some statements."""
    counts = dict.fromkeys(LABELS, 0)
    for row in statements:
        counts[statement_category(row)] += 1
    return VerdictCounts(**counts)
