"""Where a quote may begin and end: at the edge of a sentence or of a clause the sentence
closes with a semicolon or colon, never inside a phrase to meet a word budget.

The operational definition, which sql/checks/quotes_whole.sql applies to every published quote:

* a quote **ends inside a phrase** unless its last character (closing brackets and quotation
  marks aside) is `.`, `;`, `:`, `!`, `?` or a dash, or the text after it on the same line
  begins (after spaces) with one of them, or the line ends there: "... to have been, accessed,
  acquired, used" followed by ", or disclosed as a result of such breach." ends inside one;
* it **starts inside a phrase** unless the text before it on the same line is empty or ends
  (after spaces) with one of those (closing quotation marks and brackets after them aside:
  `.”`), a list or emphasis mark (`-`, `+`, `*`, `#`, `>`, `|`), or list labels ("(a)",
  "(1)(i)", "2)") that open the line or follow one of those (or an editorial "NB ..." note):
  "..., 1016.5, and" before "1016.8 of this part must" starts inside one, and so does "of
  this section, you must" after "pursuant to paragraph (e)(1)", where the labels are a
  reference, not a list.

A clause longer than the word budget is kept whole.
"""

from __future__ import annotations

import re

_ENDS = frozenset(".;:!?—–")
_CLOSERS = ")]}\"”’'"
_OPENS = _ENDS | frozenset("*-+#>|")
# White space other than the line break: what Python's str.isspace() holds, as the SQL check
# spells it (\p{Zs} and the control characters)
BLANKS = "".join(c for c in map(chr, range(0x3001)) if c.isspace() and c != "\n")
_WINDOW = 80  # characters looked at on either side; runs of blanks are shorter in practice
# `[^\S\n]` is BLANKS as a character class (`\s` is exactly str.isspace()). The regexes below
# do in one C call what a loop over characters, or over words, did in Python: whole_span widens
# hundreds of thousands of quotes in a corpus, by a dozen words on average.
_END_MARKS = re.escape("".join(sorted(_ENDS)))
_CLOSER_MARKS = re.escape(_CLOSERS)
# The text after a quote goes on with its phrase: after blanks, neither a line break nor an end.
_PHRASE_GOES_ON = re.compile(rf"[^\S\n]*[^\s{_END_MARKS}]")
# Widening forward steps over the blanks and the word after the span until the span no longer
# ends inside a phrase. Only a word end after an end mark or a closer, or before (after blanks)
# a line break, an end mark, the text's end or _WINDOW blanks can be such a place: a word end
# that is none of these is inside, and the step after it is forced. This regex takes every step
# up to the next word end that may stop the widening, in one match; ends_inside decides there.
_STEP_INSIDE = (
    rf"[^\S\n]*+\S++(?<![{_END_MARKS}{_CLOSER_MARKS}])"
    rf"(?![^\S\n]*+(?:[\n{_END_MARKS}]|\Z))(?![^\S\n]{{{_WINDOW}}})"
)
_TO_POSSIBLE_END = re.compile(rf"(?:{_STEP_INSIDE})*+[^\S\n]*+\S*+")
# Widening backward likewise, on the text before the span reversed: only a word start after a
# line break, an opening mark (end marks among them), a closer, `floor` or _WINDOW blanks (each
# after blanks) may stop it. The match is empty when only blanks separate the span from floor.
_OPENING_MARKS = re.escape("".join(sorted(_OPENS)))
# List labels at the end of the text before a quote, opening their line (or the window) or
# after an end or list mark (closers after an end mark aside): "(a)(1) ", "- (2) ", "; (ii) ",
# or after the editorial note ("NB") that New York's laws put before a version of a subsection
# ("* NB Effective June 30, 2027 (c) ", "NB Repealed March 31, 2026 (h) ").
_LEADING_LABELS = re.compile(
    rf"(?:^|[\n{_OPENING_MARKS}][{_CLOSER_MARKS}]*)[^\S\n]*(?:NB[^\S\n]+[^()\n]*)?"
    rf"(?:\(?[0-9A-Za-z]{{1,6}}\)[^\S\n]*)+$"
)
_STEP_BACK_INSIDE = (
    rf"[^\S\n]*+\S++(?![^\S\n]*+(?:[\n{_OPENING_MARKS}{_CLOSER_MARKS}]|\Z))"
    rf"(?![^\S\n]{{{_WINDOW}}})"
)
_TO_POSSIBLE_START = re.compile(rf"(?:{_STEP_BACK_INSIDE})*+(?:[^\S\n]*+\S++)?")


def ends_inside(text: str, end: int) -> bool:
    """Whether a quote ending at `end` (0 <= end <= len(text)) stops inside a phrase (see the
    module docstring)."""
    last = text[end - 1 : end]
    if last in _CLOSERS:  # rare (or end == 0, as "" is in any string): look past the closers
        last = text[max(0, end - _WINDOW) : end].rstrip(_CLOSERS)[-1:]
    if last in _ENDS:
        return False
    return _PHRASE_GOES_ON.match(text, end, end + _WINDOW) is not None


def starts_inside(text: str, start: int) -> bool:
    """Whether a quote starting at `start` begins inside a phrase (see the module docstring)."""
    before = text[max(0, start - _WINDOW) : start].rstrip(BLANKS)
    if not before or before[-1] == "\n" or before[-1] in _OPENS:
        return False
    if before[-1] == ")" and _LEADING_LABELS.search(before):
        return False
    return before.rstrip(_CLOSERS)[-1:] not in _ENDS


def whole_span(text: str, start: int, end: int, floor: int = 0) -> tuple[int, int]:
    """The span widened word by word until it starts and ends at phrase boundaries: back to
    no earlier than `floor`, forward to no later than its line's end. Each step takes in the
    blanks and the word before (or after) it: the word is there, since the span is inside. A
    span that only blanks separate from `floor` is not widened into them, and one that opens
    with the mark ending the phrase before it ("; provided, that ...", " . Such report ...")
    starts after the mark."""
    while start < end and (text[start] in _ENDS or text[start] in BLANKS):
        start += 1
    while start > floor and starts_inside(text, start):
        # matches at every position (it may match nothing)
        taken = _TO_POSSIBLE_START.match(text[floor:start][::-1]).end()  # type: ignore[union-attr]
        if not taken:
            break
        start -= taken
    while ends_inside(text, end):
        end = _TO_POSSIBLE_END.match(text, end).end()  # type: ignore[union-attr]  # as above
    return start, end
