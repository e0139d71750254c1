"""Atomic claims: one fact each, self-contained, so each can be checked against its quote alone.

An answer's statement often carries two duties in one sentence ("Covered entities must notify
individuals within 60 days and notify the Secretary annually"). Checked whole, a wrong second
half hides behind a right first half. So a statement is cut into its sentences, and a sentence
at its coordinated requirements, and each piece is made to stand on its own:

* a verb phrase that shares the subject and modal of the one before it gets them back, with
  the sentence's opening condition: "... and notify the Secretary annually" becomes "Covered
  entities must notify the Secretary annually";
* a clause whose subject is a pronoun or "such entity" ("It must ...", "They shall ...", "such
  covered entity shall ...") gets the actor of the previous claim instead.

What is never cut: a statement of SHORT_WORDS words or fewer (its pieces would be fragments of
two or three words, too small to verify alone); lists of objects ("names, addresses and phone
numbers", "individuals and the Secretary"), which have no verb of their own after the "and";
alternatives joined by "or", which form one requirement; conditions and exceptions ("unless",
"if", "provided that"), which belong to the claim they limit; and anything inside brackets or
quotation marks.

Offsets: `start` and `end` index the input, always, and `source` is `input[start:end]`, the
words the claim was cut from. `text` is the claim to verify. The two differ exactly when the
claim was rewritten to stand alone (`rewritten`), e.g. source "notify the Secretary annually",
text "Covered entities must notify the Secretary annually."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundwork.claims.modality import readings
from groundwork.text.sentences import sentence_spans

SHORT_WORDS = 8

_JOINT = re.compile(r"\s*;\s*(?:and\s+|but\s+)?|,?\s+(?:and|but)\b\s*(?:also\s+)?", re.IGNORECASE)
# "must review and modify the measures": the first verb shares the object, so no cut.
_BARE_VERB_BEFORE = re.compile(
    r"\b(?:to|shall|must|may|should|will|can|cannot)\s+(?:[a-z]+ly\s+)?[a-z-]+$", re.IGNORECASE
)
_LINKED = re.compile(r"[,;]|\b(?:and|or)\b", re.IGNORECASE)
_ASIDE = re.compile(r",[^,;:]{1,150}?,\s*")
_ADVERB = re.compile(r"(?:[a-z]+ly\s+)")
_ASIDE_OPENING = re.compile(r"^,[^,;:]{1,150}?,\s*")  # ", not later than 60 days, provide"
# A verb opening a shared-subject conjunct is followed by its object or complement.
_VERB_THEN_OBJECT = re.compile(
    r"(?P<verb>[a-z][a-z-]+)\s+(?:the|a|an|such|any|each|all|its|their|his|her|them|it|that"
    r"|copies|written|notice|notification|prior|reasonable|appropriate)\b"
)
_NOUN_ENDINGS = ("s", "ment", "tion", "sion", "ance", "ence", "ity", "ness", "ship", "ure")
_NOT_VERBS = frozenset(
    """the a an any each every all no this that these those such its their his her our your
    other another some both either neither one two three four five in on at of to for with by
    from upon under within as into through during without""".split()  # noqa: SIM905
)
_PRONOUN_SUBJECT = re.compile(
    r"^(?:it|they|he|she|this\s+entity|such\s+(?:[a-z-]+\s+){0,2}?[a-z-]+?)(?=\s+(?:shall|must|may"
    r"|can|cannot|should|will|is|are|has|have|needs?)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class AtomicClaim:
    """One checkable claim: `text` to verify, cut from `source` = input[start:end]."""

    text: str
    start: int
    end: int
    source: str

    @property
    def rewritten(self) -> bool:
        """True when the text was made self-contained and so differs from its source."""
        return self.text != self.source


def atomic_claims(text: str) -> list[AtomicClaim]:
    """The atomic claims of a statement, in order (see the module docstring)."""
    if len(text.split()) <= SHORT_WORDS:
        stripped = text.strip()
        if not stripped:
            return []
        start = text.index(stripped)
        return [AtomicClaim(stripped, start, start + len(stripped), stripped)]
    claims: list[AtomicClaim] = []
    actor: str | None = None
    for start, end in sentence_spans(text):
        for claim in _sentence_claims(text, start, end, actor):
            claims.append(claim)
            actor = _actor(claim.text) or actor
    return claims


def _sentence_claims(text: str, start: int, end: int, actor: str | None) -> list[AtomicClaim]:
    """The claims of one sentence: its coordinated requirements, each made self-contained."""
    pieces = _pieces(text, start, end)
    claims = []
    shared: str | None = None  # the opening, subject and modal the first piece governs with
    subject_part: str | None = None  # the same without the modal
    for index, (piece_start, piece_end, kind) in enumerate(pieces):
        source = text[piece_start:piece_end]
        body = source
        if kind == "verb" and shared:
            body = shared.rstrip() + (body if body.startswith(",") else " " + body)
        elif kind == "modal" and subject_part:
            body = subject_part + " " + body
        elif index == 0 or kind == "clause":
            subject = _PRONOUN_SUBJECT.match(body)
            if subject and actor:
                body = actor + body[subject.end() :]
        body = body[:1].upper() + body[1:]
        claims.append(AtomicClaim(body, piece_start, piece_end, source))
        if index == 0:
            shared = _shared_opening(text, piece_start, piece_end)
            subject_part = _subject_part(text, piece_start, piece_end)
        actor = _actor(body) or actor
    return claims


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, kind) of the pieces of a sentence: "first", then each "clause" (own
    subject and trigger), "modal" (own trigger, shares the subject) or "verb" (shares the
    first piece's subject and modal)."""
    cuts: list[tuple[int, int, str]] = []
    left = start
    for joint in _JOINT.finditer(text, start, end):
        if _inside_brackets(text, start, joint.start()):
            continue
        left_text = text[left : joint.start()]
        if not _has_trigger(left_text) or _BARE_VERB_BEFORE.search(left_text):
            continue
        kind = _conjunct_kind(text, joint.end(), end)
        if kind is None:
            continue
        cuts.append((joint.start(), joint.end(), kind))
        left = joint.end()
    pieces = []
    piece_start, kind = start, "first"
    for cut_start, cut_end, next_kind in cuts:
        pieces.append((piece_start, _trimmed_end(text, piece_start, cut_start), kind))
        piece_start, kind = cut_end, next_kind
    pieces.append((piece_start, _trimmed_end(text, piece_start, end), kind))
    return pieces


def _conjunct_kind(text: str, position: int, end: int) -> str | None:
    """What follows a joint: a "clause" with its own trigger within a few words, a "verb"
    phrase governed by the earlier modal, or None (a list of objects, an adjective ...)."""
    rest = _ASIDE_OPENING.sub("", text[position:end])
    head = " ".join(rest.split()[:10])
    found = readings(head)
    if found:
        before = head[: found[0].start].strip()
        if not before:
            return "modal"
        if len(before.split()) <= 6 and not _LINKED.search(before):
            return "clause"
    rest = _ADVERB.sub("", rest[:60], count=1) if _ADVERB.match(rest) else rest
    verb = _VERB_THEN_OBJECT.match(rest)
    word = verb.group("verb") if verb else ""
    if word and word not in _NOT_VERBS and not word.endswith(_NOUN_ENDINGS):
        return "verb"
    return None


def _shared_opening(text: str, start: int, end: int) -> str | None:
    """The first piece's words up to its governed verb: opening condition, subject and modal
    (and an aside after the modal): "For breaches of fewer than 500 individuals, a covered
    entity shall "."""
    piece = text[start:end]
    found = readings(piece)
    if not found:
        return None
    trigger_end = found[0].start + len(found[0].trigger)
    rest = piece[trigger_end:]
    aside = _ASIDE.match(rest)
    if aside:
        trigger_end += aside.end()
    opening = piece[:trigger_end].rstrip()
    return opening + " "


def _subject_part(text: str, start: int, end: int) -> str | None:
    """The first piece's words before its trigger: "(c) Such application"."""
    found = readings(text[start:end])
    return text[start : start + found[0].start].rstrip() or None if found else None


def _actor(claim: str) -> str | None:
    """The subject of a claim's first reading, unless it is itself a pronoun."""
    found = readings(claim)
    subject = found[0].subject if found else None
    if not subject or _PRONOUN_SUBJECT.match(subject + " must"):
        return None
    return subject


def _has_trigger(piece: str) -> bool:
    return bool(readings(piece))


def _inside_brackets(text: str, start: int, position: int) -> bool:
    """An odd number of quotation marks, or an open bracket, before position."""
    prefix = text[start:position]
    quotes = prefix.count('"') + prefix.count("“") + prefix.count("”")
    return quotes % 2 == 1 or prefix.count("(") > prefix.count(")")


def _trimmed_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in " ,;":
        end -= 1
    return end
