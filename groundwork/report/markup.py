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
