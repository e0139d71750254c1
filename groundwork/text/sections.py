"""The structure of a legal text: paragraphs, Markdown headings and subsection labels.

Nesting in the corpus is carried by labels only ((a) > (1) > (i) > (A), or 1. > a. > (a)), never by
indentation, so the label path of a paragraph is rebuilt with a stack: a label of a kind already on
the stack closes everything below it; a new kind opens a deeper level. `(i)`, `(v)` and `(x)` are
letters when they continue a letter sequence ((h) -> (i)) and roman numerals otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_PARAGRAPH_START = re.compile(r"(?:#{1,6}\s|[-*+]\s|\(\w{1,5}\)|\d{1,3}\.\s|[a-z]\.\s)")
# A line without its outer white space (`\s` is str.isspace()); a blank line has no match
_LINE = re.compile(r"\S(?:[^\n]*\S)?")
_HEADING = re.compile(r"#{1,6}(?=\s)")
_PAREN_LABEL = re.compile(
    r"\(([0-9]{1,3}[a-z]?|[a-z]{1,2}|[A-Z]{1,2}|[ivxlc]{1,6}|[IVXLC]{1,6})\)\s*"
)
_DOT_LABEL = re.compile(r"([0-9]{1,3}|[a-z])\.\s+")
_ROMAN = re.compile(r"^(?:x{0,3})(?:ix|iv|v?i{0,3})$")
_SECTION_NUMBER = re.compile(r"§+\s*([0-9][\w.\-–]*[0-9a-z])")


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One paragraph of a document: its span, heading level (0 = body) and labels."""

    start: int
    end: int
    heading_level: int
    labels: tuple[str, ...]
    label_end: int  # offset just past the labels (== start when there are none)


def paragraphs(text: str) -> list[Paragraph]:
    """Paragraphs of a document: blank-line blocks, with a new one at each heading or list item."""
    found: list[Paragraph] = []
    block_start: int | None = None
    for line in _LINE.finditer(text):
        s, e = line.span()
        joins_previous = (
            block_start is not None
            and found
            and text.count("\n", found[-1].end, s) == 1
            and not _PARAGRAPH_START.match(text, s)
            and found[-1].heading_level == 0
        )
        if joins_previous:
            last = found.pop()
            found.append(Paragraph(last.start, e, 0, last.labels, last.label_end))
            continue
        block_start = s
        found.append(_paragraph(text, s, e))
    return found


def _paragraph(text: str, start: int, end: int) -> Paragraph:
    heading = _HEADING.match(text, start)
    if heading:
        return Paragraph(start, end, heading.end() - start, (), start)
    labels: list[str] = []
    pos = start
    dotted = _DOT_LABEL.match(text, pos)
    if dotted and dotted.end() < end:
        labels.append(dotted.group(1) + ".")
        pos = dotted.end()
    while (m := _PAREN_LABEL.match(text, pos)) and m.end() <= end:
        labels.append(m.group(1))
        pos = m.end()
    return Paragraph(start, end, 0, tuple(labels), pos)


def label_kinds(label: str) -> tuple[str, ...]:
    """The kinds a label can be, most likely first; `i`, `v`, `x` are both letter and roman."""
    if label.endswith("."):
        return ("dot-digit",) if label[:-1].isdigit() else ("dot-lower",)
    if label[0].isdigit():
        return ("digit",)
    lower = label.lower()
    is_roman = bool(_ROMAN.match(lower))
    case = "lower" if label.islower() else "upper"
    if is_roman and ((len(label) > 1 and len(set(lower)) > 1) or lower not in {"i", "v", "x"}):
        return (f"roman-{case}",)
    if is_roman:
        return (f"roman-{case}", case)
    return (case,)


def _letter_successor(previous: str, label: str) -> bool:
    return len(previous) == len(label) == 1 and ord(label.lower()) == ord(previous.lower()) + 1


@dataclass
class LabelStack:
    """Rebuilds label paths paragraph by paragraph; `reset` at each new heading section."""

    levels: list[tuple[str, str]]

    @classmethod
    def empty(cls) -> LabelStack:
        return cls(levels=[])

    def reset(self) -> None:
        self.levels.clear()

    def push(self, labels: tuple[str, ...]) -> tuple[str, ...]:
        """Place a paragraph's labels and return the full label path it sits at."""
        for label in labels:
            kind = self._kind(label)
            depth = next((i for i, (k, _) in enumerate(self.levels) if k == kind), None)
            if depth is not None:
                del self.levels[depth:]
            self.levels.append((kind, label))
        return tuple(label for _, label in self.levels)

    def _kind(self, label: str) -> str:
        kinds = label_kinds(label)
        if len(kinds) == 1:
            return kinds[0]
        roman, letter = kinds
        for kind, previous in self.levels:
            if kind == letter and _letter_successor(previous, label):
                return letter
        return roman


def section_number(citation: str | None, text: str) -> str | None:
    """The section number a label path starts from: `164.308` from `45 CFR § 164.308`."""
    for candidate in (citation or "", text[:200]):
        match = _SECTION_NUMBER.search(candidate)
        if match:
            return match.group(1).replace("–", "-")
    return None


def label_path(section: str | None, labels: tuple[str, ...]) -> str:
    """Human label path, e.g. `164.308(a)(1)(ii)(A)`; dotted labels are written in parentheses."""
    return (section or "") + "".join(f"({label.rstrip('.')})" for label in labels)


def labelled_paragraphs(text: str) -> Iterator[tuple[Paragraph, tuple[str, ...], str | None]]:
    """Each paragraph with its label path and the nearest heading above it."""
    stack = LabelStack.empty()
    heading: str | None = None
    for para in paragraphs(text):
        if para.heading_level:
            stack.reset()
            heading = text[para.start + para.heading_level : para.end].strip()
            yield para, (), heading
            continue
        yield para, stack.push(para.labels), heading
