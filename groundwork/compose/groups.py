"""How an extractive answer is laid out: its verified requirements grouped by who bears them
(the bound subject the extractor found) and by modality, under a one-line overview made only of
counts and the quotes' own words ("5 obligations on covered entity, 1 on business associate;
deadlines: 60 days"). A reader sees who must do what, by when, before reading the quotes.
"""

from __future__ import annotations

import re
from collections import defaultdict

from groundwork.text.numbers import mentions
from schemas.requirements import MODALITIES

NO_SUBJECT = "no named subject"
_ARTICLE = re.compile(r"^(?:a|an|the|any|each|every)\s+", re.IGNORECASE)
# A pronoun names no one by itself: its referent is in another sentence.
_PRONOUNS = frozenset(["it", "they", "this", "that", "these", "those", "such", "he", "she", "who"])
DEADLINE_KINDS = ("duration", "date")
# "A covered entity that ...", "A business associate of a covered entity that ...": the noun
# an opening article introduces, up to the clause or phrase that qualifies it.
_HEAD = re.compile(
    r"(?:a|an|the|each|every|any)\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:that|who|which|whose|of)\b",
    re.IGNORECASE,
)


def bearer(row: dict) -> str:
    """Who a requirement binds, in its quote's words without the article: "covered entity" for
    "A covered entity shall ...". The extractor's subject is the words before the modal, which
    for "A covered entity that ... or discloses X shall" is "discloses X": a quote that opens
    on an article and a noun its relative clause qualifies is bound by that noun. A passive
    duty ("Notice shall be provided") and a pronoun name no one: NO_SUBJECT."""
    quote, subject = row["exact_quote"], (row.get("subject") or "").strip()
    trigger = re.escape(row.get("trigger") or "shall")
    if re.search(rf"\b{trigger}\s+(?:not\s+)?be\s+\w+(?:ed|en|wn)\b", quote, re.IGNORECASE):
        return NO_SUBJECT
    head = _HEAD.match(quote)
    if head and not quote.lower().startswith(subject.lower()):
        return head.group(1)
    words = _ARTICLE.sub("", subject)
    if not words or words.lower() in _PRONOUNS:
        return NO_SUBJECT
    if words != subject or words.split()[0].isupper():
        return words  # "the Secretary" -> "Secretary"; "HHS" stays
    return words[0].lower() + words[1:]  # capitalised only because it opens the sentence


def _plural(modality: str, n: int) -> str:
    return modality if n == 1 else f"{modality}s"


def grouped(rows: list[dict]) -> list[tuple[str, str, list[dict]]]:
    """(bearer, modality, rows) groups, ordered by their best-ranked row; rows keep rank order.
    Bearers that differ only in case are one group, named as first written."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    names: dict[str, str] = {}
    for row in rows:
        who = bearer(row)
        names.setdefault(who.lower(), who)
        groups[(who.lower(), row["modality"])].append(row)
    return [(names[who], modality, members) for (who, modality), members in groups.items()]


def group_heading(who: str, modality: str, n: int) -> str:
    """The line above a group, e.g. "Covered entity — 3 obligations:"."""
    return f"{who[0].upper()}{who[1:]} — {n} {_plural(modality, n)}:"


def deadlines(rows: list[dict]) -> list[str]:
    """The durations and dates the quotes set, as written ("60 days"), once each."""
    found = (
        m.surface
        for row in rows
        for text in (row.get("lead_in_quote"), row["exact_quote"])
        if text
        for m in mentions(text)
        if m.kind in DEADLINE_KINDS
    )
    return list(dict.fromkeys(found))


def overview(unique: list[dict], shown: list[dict]) -> str:
    """The answer's first line: how many requirements were verified and, of those quoted, how
    many of each modality bind whom, then the deadlines they set. Counts and quote words only."""
    parts = []
    for modality in MODALITIES:
        bearers = [(who, len(members)) for who, m, members in grouped(shown) if m == modality]
        if not bearers:
            continue
        first, *rest = bearers
        on = [f"{first[1]} {_plural(modality, first[1])} {_on(first[0])}"]
        parts.append(", ".join(on + [f"{n} {_on(who)}" for who, n in rest]))
    head = f"{len(unique)} verified requirement{'s' if len(unique) != 1 else ''}"
    if len(shown) < len(unique):
        head += f"; the {len(shown)} quoted below"
    due = deadlines(shown)
    tail = f"; deadlines: {', '.join(due)}" if due else ""
    return f"{head}: {'; '.join(parts)}{tail}."


def _on(who: str) -> str:
    return "with no named subject" if who == NO_SUBJECT else f"on {who}"
