"""Number chips: each number in a statement, tied to the same number in a quote it cites.

The cited quote is the number's source. A chip shows that quote with the number marked, the
normalised value and unit, and how the source's wording became that value (its
`transformation`). A number found in no cited quote is shown as such: the reader should see it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwork.export.answers_markdown import location
from groundwork.text.numbers import Mention, mentions

MARKER = re.compile(r"\[(REQ-[SP]\d{4,})\]")


@dataclass(frozen=True)
class Source:
    """Where a number comes from: a cited requirement's quote and the number's place in it."""

    requirement_id: str
    quote: str
    mention: Mention


@dataclass(frozen=True)
class Chip:
    """A number in a statement (`mention`, offsets into the statement) and its source."""

    mention: Mention
    source: Source | None


def _masked(text: str, cited: list[dict]) -> str:
    """The statement with its markers and the citation labels of what it cites blanked out
    (same length, so offsets hold): those are references, never quantities."""
    spans = [m.span() for m in MARKER.finditer(text)]
    for row in cited:
        label = location(row)
        at = text.find(label)
        while label and at >= 0:
            spans.append((at, at + len(label)))
            at = text.find(label, at + len(label))
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def quote_sources(row: dict) -> list[Source]:
    """The numbers in one requirement's quoted text (its lead-in, then the quote)."""
    return [
        Source(row["requirement_id"], text, mention)
        for text in (row.get("lead_in_quote"), row["exact_quote"])
        if text
        for mention in mentions(text)
    ]


def statement_chips(text: str, cited: list[dict], sources: dict[str, list[Source]]) -> list[Chip]:
    """The chips of one statement. `cited` are the evidence rows of its citations, `sources`
    the numbers of every cited quote by requirement ID (computed once per report)."""
    candidates = [s for row in cited for s in sources.get(row["requirement_id"], [])]
    chips = []
    for mention in mentions(_masked(text, cited)):
        match = next((s for s in candidates if s.mention.key == mention.key), None)
        chips.append(Chip(mention, match))
    return chips
