"""Claim/quote pairs made from real register quotes, FactCC-style: each quote is rewritten in
ways whose verdict is known without a reader (a changed number contradicts, a dropped exception
leaves the claim partial, a sentence from another rule is unsupported, the quote's own clause is
supported). The project's labelled pairs (data/labels/) were written the same way by hand; these
are many, cheap and mechanical, and teach the model the labels' boundaries on corpus wording.

Every rewrite is deterministic: a quote's random choices are seeded by its text.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED = (
    "SUPPORTED",
    "PARTIAL",
    "UNSUPPORTED",
    "CONTRADICTED",
)
LABELS = (SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED)


@dataclass(frozen=True)
class Quote:
    """A register quote and what the rules read in it."""

    doc_id: str
    text: str
    modality: str
    trigger: str
    subject: str | None


@dataclass(frozen=True)
class Pair:
    """One training example: a claim, its evidence, the verdict and how it was made."""

    claim: str
    evidence: str
    label: str
    kind: str


# Modal rewrites: (pattern, replacement, label). A duty said to be optional, a permission said
# to be a duty, a duty or a ban negated, contradict; the same modality in other words supports.
_MODAL_REWRITES = (
    (r"\bshall not\b", "may", CONTRADICTED, "modality"),
    (r"\bmust not\b", "may", CONTRADICTED, "modality"),
    (r"\bmay not\b", "may", CONTRADICTED, "negation"),
    (r"\bshall not\b", "shall", CONTRADICTED, "negation"),
    (r"\bshall\b", "may", CONTRADICTED, "modality"),
    (r"\bmust\b", "may", CONTRADICTED, "modality"),
    (r"\bshall\b", "shall not", CONTRADICTED, "negation"),
    (r"\bmust\b", "must not", CONTRADICTED, "negation"),
    (r"\bmay\b", "must", CONTRADICTED, "modality"),
    (r"\bmay\b", "may not", CONTRADICTED, "negation"),
    (r"\bshall not\b", "must not", SUPPORTED, "reworded"),
    (r"\bshall\b", "must", SUPPORTED, "reworded"),
    (r"\bshall\b", "is required to", SUPPORTED, "reworded"),
    (r"\bmust\b", "has to", SUPPORTED, "reworded"),
    (r"\bmay\b", "is permitted to", SUPPORTED, "reworded"),
)
# Words whose swap reverses a time, a direction or a scope.
_OPPOSITES = (
    ("before", "after"),
    ("after", "before"),
    ("within", "after"),
    ("at least", "at most"),
    ("not more than", "at least"),
    ("less than", "more than"),
    ("more than", "less than"),
    ("including", "excluding"),
    ("written", "oral"),
    ("in writing", "orally"),
    ("annually", "every five years"),
)
# Terms that broaden a claim's scope past what the quote says.
_BROADER = ("every person", "any entity", "all organizations", "anyone")
# Content a quote does not state: a claim that adds one is unsupported.
_INVENTED = (
    " within 30 days",
    " in writing",
    " at least once a year",
    " at no cost",
    " before the end of each fiscal year",
    " with the approval of the Secretary",
)
# An opening qualifier: dropping it leaves the claim partial.
_QUALIFIER = re.compile(
    r"^(?:except|unless|subject to|if|when|where|in the case|notwithstanding|to the extent|"
    r"upon|after|before|within|for purposes of)\b[^,]{3,200},\s+",
    re.IGNORECASE,
)
# A trailing exception or condition.
_TAIL_QUALIFIER = re.compile(
    r",?\s+(?:unless|except|if|provided that|other than|without|only if|to the extent)\b[^;.]*",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\b\d+(?:,\d{3})*\b")
_WORD_NUMBER = {
    "one": "two",
    "two": "three",
    "three": "five",
    "five": "ten",
    "ten": "thirty",
    "six": "four",
    "thirty": "ninety",
    "sixty": "ninety",
}


def _rng(text: str) -> random.Random:
    return random.Random(int(hashlib.sha256(text.encode()).hexdigest()[:16], 16))


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _changed_number(text: str, rng: random.Random) -> str | None:
    """The quote with one number changed (digits scaled, or a number word replaced)."""
    numbers = [m for m in _NUMBER.finditer(text) if not _cited(text, m.start())]
    if numbers:
        m = rng.choice(numbers)
        value = int(m.group().replace(",", ""))
        new = rng.choice([value * 2, value + rng.randint(1, 9), max(1, value // 2) + 1])
        if new == value:
            new = value + 1
        return text[: m.start()] + str(new) + text[m.end() :]
    for word, other in _WORD_NUMBER.items():
        found = re.search(rf"\b{word}\b", text)
        if found:
            return text[: found.start()] + other + text[found.end() :]
    return None


def _cited(text: str, at: int) -> bool:
    """Whether a number is part of a citation (a section or paragraph number, a year)."""
    before = text[max(0, at - 12) : at].lower()
    return "§" in before or "section" in before or "part" in before or "u.s.c" in before


def _replaced_once(text: str, pattern: str, new: str) -> str | None:
    """`text` with the first match of `pattern` replaced, or None when nothing matches."""
    changed, count = re.subn(pattern, new, text, count=1)
    return changed if count else None


def _without_qualifier(text: str) -> str | None:
    """The quote without its opening or trailing qualifier (a partial claim), or None."""
    opening = _QUALIFIER.match(text)
    if opening:
        return _capitalised(text[opening.end() :])
    tail = _TAIL_QUALIFIER.search(text)
    if tail and tail.start() > len(text) // 3:
        rest = text[: tail.start()].rstrip(" ,;")
        return rest + "." if not rest.endswith(".") else rest
    return None


def pairs_for(quote: Quote, others: list[Quote]) -> Iterator[Pair]:
    """The rewrites of one quote that apply to it, each with its verdict. `others` are quotes of
    the same document (claims about another rule there are unsupported by this one)."""
    rng = _rng(quote.text)
    text = quote.text
    yield Pair(text, text, SUPPORTED, "verbatim")
    for pattern, new, label, kind in rng.sample(_MODAL_REWRITES, len(_MODAL_REWRITES)):
        changed = _replaced_once(text, pattern, new)
        if changed and changed != text:
            yield Pair(changed, text, label, kind)
            break
    number = _changed_number(text, rng)
    if number:
        yield Pair(number, text, CONTRADICTED, "number_changed")
    for word, other in rng.sample(_OPPOSITES, len(_OPPOSITES)):
        changed = _replaced_once(text, rf"\b{word}\b", other)
        if changed:
            yield Pair(changed, text, CONTRADICTED, "opposite")
            break
    partial = _without_qualifier(text)
    if partial:
        yield Pair(partial, text, PARTIAL, "missing_qualifier")
    if quote.subject and len(quote.subject) < 60 and quote.subject in text:
        party = rng.choice([o.subject for o in others if o.subject] or [None])
        if party and party.lower() != quote.subject.lower() and len(party) < 60:
            swapped = text.replace(quote.subject, party, 1)
            yield Pair(_capitalised(swapped), text, CONTRADICTED, "actor_swapped")
        if rng.random() < 0.5:
            broad = text.replace(quote.subject, rng.choice(_BROADER), 1)
            yield Pair(_capitalised(broad), text, UNSUPPORTED, "scope_broadened")
    if text.endswith("."):
        yield Pair(text[:-1] + rng.choice(_INVENTED) + ".", text, UNSUPPORTED, "invented")
    unrelated = [o for o in others if o.text != text]
    if unrelated:
        yield Pair(rng.choice(unrelated).text, text, UNSUPPORTED, "wrong_requirement")
