"""Escaping: every piece of corpus text in the report goes through here.

Corpus text can hold <, & and quotes, and a URL can be `javascript:`; the report shows them as
text and links only http(s) addresses.
"""

from __future__ import annotations

import html
import re


def esc(text: object) -> str:
    """Text as HTML, quotes included (safe in attributes too)."""
    return html.escape("" if text is None else str(text), quote=True)


def link(url: str | None) -> str:
    """An http(s) URL as a link; anything else as plain text."""
    if url and re.match(r"https?://", url, re.IGNORECASE):
        return f'<a href="{esc(url)}" rel="noopener noreferrer">{esc(url)}</a>'
    return esc(url or "—")


RESERVED = frozenset({"top", "provenance", "run-summary", "gw-report", "gw-q", "gw-nav"})


def anchor(question_id: str, n: int) -> str:
    """A question's element id, which is its permalink (#Q001): the question ID where it is a
    plain token, else `q<n>` (an ID from a user's file may hold spaces or '#')."""
    plain = re.fullmatch(r"[A-Za-z][\w.-]*", question_id) and not question_id.startswith("REQ-")
    return question_id if plain and question_id not in RESERVED else f"q{n}"


def requirement_link(requirement_id: str, target: str) -> str:
    """A requirement ID as a link to its entry: no ID in the report is plain text."""
    return f'<a class="gw-req" href="#{esc(target)}">{esc(requirement_id)}</a>'
