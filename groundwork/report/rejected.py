"""Closest candidates not used: under each answer, the requirements the gate came nearest to
accepting and turned down, each with the opening of its quote, its source and why, in words.

Beside an answer they show what its quotes were chosen over; under a refused answer they are
what was checked. The block is left out of the page's search (report.js): a search finds what
answers say and quote, not what they set aside.
"""

from __future__ import annotations

from groundwork.export.answers_markdown import location
from groundwork.report.markup import esc, requirement_link
from groundwork.text.plain import quote_opening, rejected_because


def not_used_id(anchor: str, requirement_id: str) -> str:
    """The element id (and permalink) of a candidate not used under one question."""
    return f"{anchor}-not-{requirement_id}"


def _item_html(anchor: str, row: dict, best: float | None) -> str:
    rid = row["requirement_id"]
    own = not_used_id(anchor, rid)
    return (
        f'<li class="gw-notused-item" id="{esc(own)}">{requirement_link(rid, own)} '
        f'<q class="gw-notused-quote">{esc(quote_opening(row["exact_quote"]))}</q> '
        f'<span class="gw-notused-source">{esc(location(row))}, {esc(row["title"])}</span>'
        f'<span class="gw-notused-why"><b>Why not used:</b> {esc(rejected_because(row, best))}.'
        "</span></li>"
    )


def not_used_html(anchor: str, rows: list[dict], best: float | None, refused: bool) -> str:
    """The block of one question (empty when the gate rejected nothing it judged). `rows` are
    its rows of sql/report/closest_rejected.sql, best first; `best` its best gate-model score."""
    if not rows:
        return ""
    checked = (
        '<p class="gw-notused-lead">What was checked: the closest candidates, and why none of '
        "them answers the question.</p>"
        if refused
        else ""
    )
    items = "".join(_item_html(anchor, row, best) for row in rows)
    return (
        f'<section class="gw-notused" aria-labelledby="{esc(anchor)}-not-h">'
        f'<h3 class="gw-notused-h" id="{esc(anchor)}-not-h">Closest candidates not used</h3>'
        f'{checked}<ol class="gw-notused-list">{items}</ol></section>'
    )
