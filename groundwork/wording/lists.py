"""Word lists kept as data: one file a list under lists/, read once at import.

Why files: a list of words is data about the language, not logic, and reads (and diffs) best as
one. Each file opens with `#` lines saying where the list came from (which statute wording,
which label set, or the corpus's wording); blank lines and `#` lines are skipped. Files inside
the package ship in the wheel and the editable install (pyproject's hatch `packages`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_FOLDER = Path(__file__).resolve().parent / "lists"


@cache
def entries(name: str) -> tuple[str, ...]:
    """The lines of lists/NAME.txt, in order, without comments, blank lines or outer spaces:
    for lists whose order matters (tried in order) or whose lines are records."""
    text = (_FOLDER / f"{name}.txt").read_text(encoding="utf-8")
    lines = (line.strip() for line in text.splitlines())
    return tuple(line for line in lines if line and not line.startswith("#"))


def words(name: str) -> frozenset[str]:
    """Every white-space separated word of lists/NAME.txt: for lists of words."""
    return frozenset(word for line in entries(name) for word in line.split())


def records(name: str, fields: int) -> tuple[tuple[str, ...], ...]:
    """Each line of lists/NAME.txt split into `fields` fields at white space, the last one
    taking the rest of the line ("later earlier deadline differs")."""
    return tuple(tuple(line.split(None, fields - 1)) for line in entries(name))
