"""A question's evidence appendix: every requirement verified for it, whole, with its source.

On screen it opens from a button under the answer; in print it is always there, so a PDF of
the report carries every quote, citation, URL, location and verdict an auditor files. Each
entry is a permalink (#Q001-REQ-S0210); a requirement's first entry in the report is also its
own (#REQ-S0210).
"""

from __future__ import annotations

from dataclasses import dataclass

from groundwork.compose.draft import quoted
from groundwork.report.cards import place
from groundwork.report.markup import esc, link, requirement_link


@dataclass(frozen=True)
class Entry:
    """One requirement in a question's appendix: its evidence row, why it was verified for
    the question, and whether the answer quotes it."""

    row: dict
    why: str
    quoted: bool


def entry_id(anchor: str, requirement_id: str) -> str:
    """The element id (and permalink) of a requirement's entry under one question."""
    return f"{anchor}-{requirement_id}"


def _entry_html(anchor: str, entry: Entry, key: str, first: bool) -> str:
    row = entry.row
    rid = row["requirement_id"]
    own = f'<span class="gw-req-anchor" id="{esc(rid)}"></span>' if first else ""
    role = "quoted in the answer" if entry.quoted else "verified, not quoted in the answer"
    return (
        f'<li class="gw-ev" id="{esc(entry_id(anchor, rid))}">{own}'
        f'<p class="gw-ev-head">{requirement_link(rid, entry_id(anchor, rid))} '
        f'<strong>[{esc(key)}]</strong> <span class="gw-ev-role">{role}</span></p>'
        f'<blockquote class="gw-ev-quote">{esc(quoted(row))}</blockquote>'
        f'<dl class="gw-ev-facts"><dt>Source</dt><dd>{esc(row["title"])}</dd>'
        f"<dt>Citation</dt><dd>{esc(row['citation'])}</dd>"
        f"<dt>URL</dt><dd>{link(row['url'])}</dd>"
        f"<dt>Location</dt><dd>{esc(place(row))}</dd>"
        f"<dt>Verdict</dt><dd>Verified for this question: {esc(entry.why)}.</dd></dl></li>"
    )


def appendix_html(anchor: str, entries: list[Entry], keys: dict[str, str], seen: set[str]) -> str:
    """The appendix of one question (empty when nothing was verified). `seen` holds the
    requirements that already have their own permalink; this adds the ones it gives one."""
    if not entries:
        return ""
    items = []
    for entry in entries:
        rid = entry.row["requirement_id"]
        items.append(_entry_html(anchor, entry, keys.get(rid, rid), rid not in seen))
        seen.add(rid)
    n = len(entries)
    title = f"Evidence appendix: {n} verified requirement{'s' if n != 1 else ''}"
    return (
        f'<section class="gw-appendix" aria-label="Evidence appendix of {esc(anchor)}">'
        f'<h3 class="gw-appendix-h"><button type="button" class="gw-appendix-toggle" '
        f'aria-expanded="false" aria-controls="{esc(anchor)}-ev">{title}</button></h3>'
        f'<ol class="gw-appendix-list" id="{esc(anchor)}-ev">{"".join(items)}</ol></section>'
    )
