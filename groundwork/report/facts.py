"""Fact chips: the deadlines, amounts and conditions of the quotes a statement cites, drawn out
beside it so that a reader sees who must do what, by when and under which condition at a glance.
Every chip's text is the quote's own (groundwork/text/numbers.py finds the numbers,
groundwork/claims/qualifiers.py the conditions and exceptions)."""

from __future__ import annotations

from functools import lru_cache

from groundwork.claims.qualifiers import EXCEPTION, qualifiers
from groundwork.report.markup import esc
from groundwork.text.numbers import mentions

LABELS = {"duration": "Deadline", "date": "Date", "amount": "Amount"}
# A relative clause limits a noun ("each individual whose ..."); it is no condition of the duty.
_RELATIVE_OPENERS = ("who ", "whose ", "that ", "which ", "whom ")
MAX_WORDS = 14  # a longer condition is cut with an ellipsis: the quote beside it holds it whole


def _cut(text: str) -> str:
    words = text.split()
    return text if len(words) <= MAX_WORDS else " ".join(words[:MAX_WORDS]) + " …"


@lru_cache(maxsize=65_536)
def facts(quote: str) -> tuple[tuple[str, str], ...]:
    """(label, text) for each deadline, date, amount, condition and exception of a quote
    (cached: a requirement is quoted under many questions)."""
    found = [
        (LABELS[m.kind], f"{m.qualifier} {m.surface}" if m.qualifier else m.surface)
        for m in mentions(quote)
        if m.kind in LABELS
    ]
    found += [
        ("Exception" if q.kind == EXCEPTION else "Condition", _cut(q.text))
        for q in qualifiers(quote)
        if not q.text.lower().startswith(_RELATIVE_OPENERS)
    ]
    return tuple(dict.fromkeys(found))


def facts_html(rows: list[dict]) -> str:
    """The chips of a statement's cited quotes (empty when they set none)."""
    chips = dict.fromkeys(
        fact
        for row in rows
        for text in (row.get("lead_in_quote"), row["exact_quote"])
        if text
        for fact in facts(text)
    )
    if not chips:
        return ""
    spans = "".join(
        f'<span class="gw-fact" data-fact="{esc(label.lower())}"><b>{esc(label)}</b> '
        f"{esc(text)}</span>"
        for label, text in chips
    )
    return f'<span class="gw-facts">{spans}</span>'
