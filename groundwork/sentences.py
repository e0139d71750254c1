"""Sentence boundaries in legal text, as character spans.

Legal prose is full of periods that end nothing (`U.S.C.`, `§ 164.404.`, `e.g.`, `No. 5`), so a
boundary needs terminal punctuation, white space, and an opening that can start a sentence, and the
word before the period must not be a known abbreviation or a bare list label.
"""

from __future__ import annotations

import re

_CANDIDATE = re.compile(r"[.!?][\"”’')\]]*\s+(?=[\"“‘(\[§A-Z0-9])")
_LAST_TOKEN = re.compile(r"(\S+)$")
_ABBREVIATIONS = frozenset(
    """
    u.s.c. u.s. c.f.r. cfr. e.g. i.e. etc. et al. seq. sec. secs. no. nos. art. arts. para.
    paras. subpara. cl. ch. chap. pt. pts. p. pp. v. vs. mr. mrs. ms. dr. inc. co. corp. ltd.
    stat. pub. l. fed. reg. dept. gen. gov. st. app. div. ann. supp. rev. ed. vol. fig. approx.
    jan. feb. mar. apr. jun. jul. aug. sep. sept. oct. nov. dec. n.y. d.c. s. h.r.
    """.split()  # noqa: SIM905 - a word list reads best as prose
)
_LABEL = re.compile(r"^\(?(?:[0-9]{1,3}|[a-zA-Z]|[ivxlcdm]{1,6})\)?\.$", re.IGNORECASE)


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each sentence in text[start:end], trimmed of outer white space."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    cursor = start
    for match in _CANDIDATE.finditer(text, start, end):
        stop = match.start() + len(match.group().rstrip())
        token = _LAST_TOKEN.search(text, cursor, match.start() + 1)
        word = token.group(1).lower().lstrip('("“') if token else ""
        if word in _ABBREVIATIONS or _LABEL.match(word):
            continue
        spans.append((cursor, stop))
        cursor = match.end()
    spans.append((cursor, end))
    return [trimmed for s, e in spans if (trimmed := _trimmed(text, s, e))[0] < trimmed[1]]


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
