"""The legal citations a question names: a section of a code ("42 CFR 482.13", "5 U.S.C.
552a(i)", "14 NYCRR Part 527"), a NIST special publication ("NIST 800-63B") or an OMB memorandum
("M-17-12").

A question asked under a provision names exactly what it is about. Where no active document is
that provision or mentions it, the corpus does not hold it, and the nearest quotes are about
something else however close their words come: a question on "42 CFR Part 2" consent forms is
not answered by HIPAA's authorisations. absent.py rejects every candidate of such a question, as
for an acronym the corpus never mentions. A provision is held when a document's citation or text
names it in any of the usual ways ("45 CFR § 164.404", "45 C.F.R. 164.404", "section 164.404 of
title 45" is not among them): a part is held when any section of it is.
"""

from __future__ import annotations

import re

# The codes whose sections a question cites as "<title> <code> <section>", each with the RE2
# pattern that finds it written in a document (case-insensitive; dots and spaces optional).
_CODES = {
    "CFR": r"C\.?\s*F\.?\s*R\.?",
    "USC": r"U\.?\s*S\.?\s*C\.?(?:\s*A\.?)?",
    "NYCRR": r"N\.?\s*Y\.?\s*C\.?\s*R\.?\s*R\.?",
}
_CODE_NAME = r"C\.?F\.?R\.?|U\.?S\.?C\.?A?|NYCRR"
_SECTION = r"\d+[A-Za-z]?(?:[.\-]\d+[A-Za-z]?)*"
_CODE_CITATION = re.compile(
    rf"\b(?P<title>\d+)\s+(?P<code>{_CODE_NAME})\s+(?:(?:Part|Sec\.|Section|§+)\s*)?"
    rf"(?P<section>{_SECTION})(?:\([\w]+\))*",
    re.IGNORECASE,
)
_NIST = re.compile(r"\b(?:NIST\s+(?:SP\s+)?|SP\s+)(?P<number>800-\d+[A-Z]?(?:-\d+)?)\b")
_OMB = re.compile(r"\b(?P<number>M-\d{2}-\d{2})\b")
# between a code and its section in a document: "Part", "§", "section", in any number
_BETWEEN = r"\s*(?:(?:part|§+|sec\.?|section)\s*)*"


def question_citations(question: str) -> dict[str, str]:
    """The provisions a question cites, each once, in order: as the question writes it -> an RE2
    pattern (case-insensitive) that finds it in a document's citation or text."""
    found: dict[str, tuple[int, str]] = {}
    for m in _CODE_CITATION.finditer(question):
        code = re.sub(r"[^A-Z]", "", m["code"].upper()).removesuffix("A")
        pattern = rf"(?i)\b{m['title']}\s*{_CODES[code]}{_BETWEEN}{re.escape(m['section'])}\b"
        found.setdefault(m[0], (m.start(), pattern))
    for m in (*_NIST.finditer(question), *_OMB.finditer(question)):
        found.setdefault(m[0], (m.start(), rf"(?i)\b{re.escape(m['number'])}\b"))
    return {name: pattern for name, (_, pattern) in sorted(found.items(), key=lambda i: i[1][0])}
