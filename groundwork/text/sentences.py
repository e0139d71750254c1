"""Sentence boundaries in legal text, as character spans.

Legal prose is full of periods that end nothing (`U.S.C.`, `§ 164.404.`, `e.g.`, `No. 5`), so a
boundary needs terminal punctuation, white space, and an opening that can start a sentence, and the
word before the period must be neither an abbreviation, an initialism (`U.S`, `e.g`), nor a bare
list label (`(1).`, `a.`). The chunker and the deontic rules both split with this one function.

A heading ends a sentence too, though it has no period: a short line (at most HEADING_WORDS
words, no closing punctuation) that opens its block (after a blank line, or first) and is
followed on the next line by the opening of a sentence. Text and HTML files and PDFs carry their
headings so ("Access control" then "All employees must ..."), and a quote must not begin with
one. The first line of a hard-wrapped paragraph is rarely that short, and a wrapped line that is
not first in its block is never taken for one.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CANDIDATE = re.compile(r"([.!?][\"”’')\]]*)\s+(?=[\"'“‘(\[]?[A-Z§0-9(])")  # 1: the close
_ABBREVIATIONS = frozenset(
    """
    sec secs no nos art arts para paras subpara subparas subd ch chap cl pt pts p pp vol ed v vs
    inc co corp ltd dr mr mrs ms st jr sr gen stat pub fed reg regs cf viz approx dept div ann supp
    rev cir cong sess jan feb mar apr jun jul aug sep sept oct nov dec op id fig etc seq al cfr
    """.split()  # noqa: SIM905 - a word list reads best as prose
)
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)*[A-Za-z]")
_OPENING = re.compile(r"[ \t]*[\"'“‘(\[]?[A-Z§0-9(]")
HEADING_WORDS = 8
# A short line that ends with a function word, or holds a modal, is the start of a wrapped
# sentence ("The Secretary shall notify" / "Congress ..."), not a heading: a heading states no duty
_FUNCTION_WORDS = frozenset(
    """
    a an the of to in on for by with from and or nor but as at that which who whose than
    """.split()  # noqa: SIM905 - a word list reads best as prose
)
_MODALS = frozenset(
    "shall must may should will would can cannot could might".split()  # noqa: SIM905
)
_LABEL = re.compile(r"\(?(?:[0-9]{1,3}|[a-zA-Z]|[ivxlcdm]{1,6})\)?", re.IGNORECASE)


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each sentence in text[start:end], trimmed of outer white space."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    cursor = start
    # (where, where the sentence closes, where the next opens, whether a period to check)
    breaks = [(m.start(), m.end(1), m.end(), True) for m in _CANDIDATE.finditer(text, start, end)]
    if text.find("\n", start, end) >= 0:  # most spans are one line: no heading can end in them
        breaks += [(nl, nl, nl + 1, False) for nl in _heading_ends(text, start, end)]
        breaks.sort()
    for at, close, after, needs_check in breaks:
        if at < cursor or (needs_check and _ends_no_sentence(text, cursor, at)):
            continue
        spans.append((cursor, close))
        cursor = after
    spans.append((cursor, end))
    return [trimmed for s, e in spans if (trimmed := _trimmed(text, s, e))[0] < trimmed[1]]


def _heading_ends(text: str, start: int, end: int) -> list[int]:
    """The line breaks in text[start:end] that end a heading (see the module docstring)."""
    found, first_in_block, pos = [], True, start
    while (nl := text.find("\n", pos, end)) >= 0:
        line = text[pos:nl].strip()
        words = line.lower().split()
        if (
            first_in_block
            and 0 < len(words) <= HEADING_WORDS
            and line[-1] not in ".!?;:,"
            and words[-1] not in _FUNCTION_WORDS
            and _MODALS.isdisjoint(words)
            and _OPENING.match(text, nl + 1, end)
        ):
            found.append(nl)
        first_in_block, pos = not line, nl + 1
    return found


def _ends_no_sentence(text: str, floor: int, dot: int) -> bool:
    """True when the word before the period at `dot` is an abbreviation, initialism or label."""
    word = text[max(floor, text.rfind(" ", floor, dot) + 1) : dot].lstrip("([\"“‘'")
    return (
        word.lower() in _ABBREVIATIONS
        or _INITIALISM.fullmatch(word) is not None
        or _LABEL.fullmatch(word) is not None
    )


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


@lru_cache(maxsize=64)
def _line_sentences(text: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """The sentences of one line, split once: a line holding several quotes (extraction asks
    for each one's enclosing sentence) is not split again for each."""
    return tuple(sentence_spans(text, start, end))


def enclosing_span(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) of the whole sentences that hold text[start:end], within its line (a
    paragraph): what a reader needs around a quote to read it in context. A quote that crosses
    no sentence boundary of its line gets the line's sentence around it; a quote the splitter
    finds no sentence for is its own span."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    spans = [
        (s, e) for s, e in _line_sentences(text, line_start, line_end) if s < end and e > start
    ]
    if not spans:
        return start, end
    return min(start, spans[0][0]), max(end, spans[-1][1])
