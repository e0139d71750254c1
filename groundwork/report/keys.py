"""Marker keys: what a reader sees in place of a requirement ID, e.g. [45 CFR 164.404(b)].

A key is built from the citation label, so it says where the text is. Two requirements with the
same label (two sentences of one paragraph) get the suffixes " a", " b", ... in ID order, so
every key in a report names one requirement; the ID stays the identity underneath.
"""

from __future__ import annotations

import re
from collections import defaultdict

from groundwork.export.answers_markdown import location


def citation_label(row: dict) -> str:
    """The citation of a requirement as a short label: `45 CFR 164.404(b)` (no section sign)."""
    return re.sub(r"\s+", " ", re.sub(r"§+\s*", "", location(row))).strip()


def _suffix(n: int) -> str:
    """a, b, ..., z, aa, ab, ...: the n-th (0-based) suffix, without an end."""
    letters = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def marker_keys(evidence: list[dict]) -> dict[str, str]:
    """requirement_id -> its key, unique within the rows given."""
    by_label: dict[str, list[str]] = defaultdict(list)
    for row in evidence:
        by_label[citation_label(row)].append(row["requirement_id"])
    keys = {}
    for label, ids in by_label.items():
        ordered = sorted(set(ids))
        for n, requirement_id in enumerate(ordered):
            keys[requirement_id] = label if len(ordered) == 1 else f"{label} {_suffix(n)}"
    return keys
