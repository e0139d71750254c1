"""Qualifiers a quote attaches to its rule, and whether a claim keeps them.

A claim that states the duty but drops "unless a written statement is submitted", "if
authorized by the person examined" or "to the extent practicable" is right in substance and
wrong in effect: it is PARTIAL. Qualifiers are found by their opening words and run to the next
clause boundary:

* exceptions: except, unless, subject to, notwithstanding, other than, excluding, apart from;
* conditions and scope: if, provided that, to the extent, in the case of, when/where (opening a
  clause), upon request, only, solely, whichever, regardless of, without unreasonable delay;
* the manner a duty must be done in: in writing, orally, knowingly, willfully, promptly,
  written, documented, during business hours, by certified mail, in plain language, clear and
  conspicuous;
* restrictive relative clauses, which limit a noun as a condition does: "each individual whose
  information has been breached", "the information that is known to the covered entity".

A claim keeps a qualifier when it says it as written, or enough of it: half of the qualifier's
terms together with a word of the same kind ("unless § 164.412 applies" keeps "except as
provided in § 164.412"), or most of its terms in any words ("once judicial proceedings have
begun" keeps "if judicial proceedings ... have been commenced"). Citation labels count as terms
here, since an exception is often nothing but its reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from groundwork.claims.lexicon import content_terms, matches, normalised
from groundwork.wording.lists import words

EXCEPTION, CONDITION = "exception", "condition"

_EXCEPTION_WORDS = (
    r"except(?:\s+(?:as|for|that|where|when|in|to))?|unless|subject\s+to|notwithstanding"
    r"|other\s+than|excluding|apart\s+from|save\s+(?:as|for)"
)
# How a duty must be done, which a claim that drops it loosens: "in writing", "knowingly and
# willfully", "in simple, nontechnical language", "a written notice".
_MANNER = (
    r"in\s+writing|orally|knowingly|will?fully|intentionally|promptly|written|documented"
    r"|during\s+(?:normal\s+)?business\s+hours|by\s+(?:certified|registered)\s+mail"
    r"|in\s+(?:simple|plain|clear)(?:,?\s+[\w-]+){0,3}?\s+language|clear\s+and\s+conspicuous"
)
_CONDITION_WORDS = (
    r"(?:only\s+)?if|provided(?:,)?\s+that|provided,|to\s+the\s+extent|in\s+the\s+case\s+(?:of|in)"
    r"|(?:(?<=^)|(?<=[,;:]\s))(?:when|whenever|where)|upon\s+(?:the\s+)?(?:written\s+)?request"
    r"|only|solely|whichever|regardless\s+of|(?P<phrase>without\s+unreasonable\s+delay"
    rf"|{_MANNER})"
    r"|(?:with|in|for)\s+each|but(?=(?:\s+[\w-]+){1,4}\s+(?:(?:may|shall|must|will)\s+not|cannot|can't)\b)"
)
_MARKER = re.compile(
    rf"\b(?:(?P<{EXCEPTION}>{_EXCEPTION_WORDS})|(?P<{CONDITION}>{_CONDITION_WORDS}))\b",
    re.IGNORECASE,
)
_END = re.compile(r",(?!\d{3})|[;:—]|\s--|\.\s|\.$")
# Citation labels: "§ 164.412", "7-1205.05(a)", "(b)(2)(ii)"; not amounts ("$1,500,000").
_CITATION = re.compile(
    r"§+\s*\d[\w.\-]*(?:\([\w.]+\))*|(?<![$\d,.])\d+[.\-]\d[\w.\-]*(?:\([\w.]+\))*"
    r"|\((?:[a-z]{1,3}|\d+)\)(?:\([\w.]+\))*"
)
_SAME_KIND = {
    EXCEPTION: re.compile(rf"\b(?:{_EXCEPTION_WORDS})\b", re.IGNORECASE),
    CONDITION: re.compile(
        rf"\b(?:{_CONDITION_WORDS}|once|after|as\s+long\s+as|so\s+long\s+as|when|whenever|where"
        r"|upon|in\s+case|on\s+condition)\b",
        re.IGNORECASE,
    ),
}
# A relative clause: its pronoun as subject ("that is known", "who willfully violates", "whose
# record is requested"), as object ("that you described"), or after "of"/"in" ("of which it
# becomes aware").
_RELATIVE = re.compile(
    r"\b(?:(?:that|which|who)\s+(?:\w+ly\s+)?(?:is|are|was|were|has|have|had|may|shall|will"
    r"|can|could|would|must|[a-z]+s|[a-z]+ed)\b|whose\s"
    r"|(?P<object>that\s+(?:you|they|it|he|she|we|the\s+\w+)\s+(?:\w+ly\s+)?[a-z]+ed\b)"
    r"|(?P<preposition>(?:of|in)\s+which\s))",
    re.IGNORECASE,
)
_NOT_NOUNS = words("not_nouns")
_WITH_MARKER = 0.5  # share of its terms a claim must keep when it has a word of the same kind
_WITHOUT_MARKER = 0.6  # ... and when it has none


@dataclass(frozen=True, slots=True)
class Qualifier:
    """One exception or condition of a quote, as written, with its terms."""

    kind: str
    text: str
    terms: tuple[str, ...]


@lru_cache(maxsize=8_192)
def qualifiers(quote: str) -> tuple[Qualifier, ...]:
    """The exceptions and conditions of a quote, in order: those after a marker word, then the
    restrictive relative clauses."""
    text = normalised(quote)
    found = []
    for marker in _MARKER.finditer(text):
        end = _END.search(text, marker.end() + 1)
        stop = marker.end() if marker.group("phrase") else end.start() if end else len(text)
        kind = EXCEPTION if marker.group(EXCEPTION) else CONDITION
        found.append(_qualifier(kind, text[marker.start() : stop]))
    found += [_qualifier(CONDITION, span) for span in _relative_clauses(text)]
    return tuple(found)


def _qualifier(kind: str, span: str) -> Qualifier:
    terms = content_terms(span) + tuple(c.group(0).strip("§ ") for c in _CITATION.finditer(span))
    return Qualifier(kind, span, terms)


def _relative_clauses(text: str) -> list[str]:
    """Restrictive relative clauses, up to the clause's end: "whose health information has
    been breached", "that is known to the covered entity", "that you described in your prior
    notice", "of which it becomes aware", "in which the date falls". They limit the noun before
    them as a condition does ("each individual whose ..."). A "which" or "who" clause after a
    comma adds a fact instead; "that" after a verb ("ensure that", "stating that") opens a
    complement; "on which", "for which" mostly name a date or purpose ("the date on which")."""
    spans = []
    for clause in _RELATIVE.finditer(text):
        before = text[: clause.start()].split()
        after_comma = bool(before) and before[-1][-1:] in ",;:"
        if after_comma and not clause.group(0).lower().startswith("that"):
            continue
        previous = before[-1].lower().strip(",;:") if before else ""
        if not previous or previous in _NOT_NOUNS or previous.endswith("ing"):
            continue
        end = _END.search(text, clause.end())
        spans.append(text[clause.start() : end.start() if end else len(text)].strip())
    return spans


def kept(qualifier: Qualifier, claim: str, quote: str) -> bool:
    """Whether the claim says enough of the qualifier (see the module docstring). Without a
    word of the qualifier's kind, only the terms the rest of the quote does not use count:
    "the person examined" is no trace of "if authorized by the person who was examined"."""
    text = normalised(claim)
    if _says(text, qualifier.text):
        return True
    claim_terms = frozenset(content_terms(text)) | frozenset(
        c.group(0).strip("§ ") for c in _CITATION.finditer(text)
    )
    terms = set(qualifier.terms)
    if _SAME_KIND[qualifier.kind].search(text):
        return not terms or _share(terms, claim_terms) >= _WITH_MARKER
    rest = frozenset(content_terms(normalised(quote).replace(qualifier.text, " ")))
    specific = {t for t in terms if t not in rest} or terms
    return bool(specific) and _share(specific, claim_terms) >= _WITHOUT_MARKER


def _says(text: str, words: str) -> bool:
    """Whether a text states the words as written (case and spacing aside). This is what keeps
    a qualifier with no content terms, such as "that are applicable to it": no share of its
    terms can be measured, so only saying it counts."""
    return re.search(rf"(?<!\w){re.escape(words.lower())}(?!\w)", text.lower()) is not None


def _share(terms: set[str], claim_terms: frozenset[str]) -> float:
    return sum(matches(t, claim_terms) for t in terms) / len(terms)
