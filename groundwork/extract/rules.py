"""The rules backend of extraction: verbatim requirement quotes found by the offline rules.

The rules (groundwork/extract/deontic.py) read one paragraph at a time. This backend walks each
document's chunks in order, keeps the label stack, maps clause offsets back to the document, and
handles enumerations: after a lead-in such as "a covered entity must:" every deeper item without a
trigger of its own becomes a requirement of its own, carrying the lead-in (quote and offsets) so
that the item stays understandable, e.g. "(A) Risk analysis (Required). Conduct an accurate ...".
The lead-in travels with its items and is not registered alone (nonrequirements.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice
from typing import ClassVar

import pyarrow as pa

from groundwork.extract.deontic import (
    EXTRACTOR_NAME,
    EXTRACTOR_VERSION,
    ITEM_MODALS,
    DeonticClause,
    deontic_clauses,
)
from groundwork.extract.nonrequirements import CONDITION_LEAD, is_lead_in, set_aside
from groundwork.extract.phrases import whole_span
from groundwork.text.sections import LabelStack, label_path, paragraphs
from groundwork.text.sentences import enclosing_span, sentence_spans
from schemas.requirements import CANDIDATES_SCHEMA

_WORD = re.compile(r"\S+")
_BULLET = re.compile(r"[-*+]\s+")
_TOKEN = re.compile(r"\w+")
# A lead-in whose modal ends it ("such substitute notice shall:", "must, in accordance with
# § 164.306:"): its items are the modal's predicate (_modal_item)
_BARE_MODAL = re.compile(
    r"\b(?:shall|must|may|should|will)(?:\s+not)?(?:\s*,[^,:]*,?)?\s*(?::|--|—)\s*$"
)
MIN_WORDS, MAX_WORDS = 10, 40
CAPTION_WORDS = 6  # an item's first sentence this short names its duty (_item_span)


# ASCII text (nearly every quote) has its `\W` characters blanked by bytes.translate (a table
# lookup per byte) and its words split at C speed, without a regex scan: the same words as
# _TOKEN finds.
_ASCII_NON_WORD = bytes([c if _TOKEN.match(chr(c)) else ord(" ") for c in range(256)])


def normalised_quote(quote: str) -> str:
    """Lower-case words only: the part of a requirement's canonical key that survives re-typing."""
    lowered = quote.lower()
    if lowered.isascii():
        return b" ".join(lowered.encode().translate(_ASCII_NON_WORD).split()).decode()
    return " ".join(_TOKEN.findall(lowered))


def _word_count(text: str, start: int, end: int) -> int:
    """_WORD's words in text[start:end], counted up to MAX_WORDS + 1 (what every caller compares
    with): str.split() splits at the same white space, faster than a regex scan, and `maxsplit`
    spares splitting a long sentence into all its words."""
    return len(text[start:end].split(None, MAX_WORDS))


def quote_context(text: str, offset: int, start: int, end: int) -> dict:
    """The columns that place a quote text[start:end] of a chunk (at document offset `offset`) in
    its sentence: the enclosing sentence's document offsets, so readers show the whole sentence
    with the quote marked, and whether the quote is long (a complete clause past MAX_WORDS words
    is kept whole rather than cut)."""
    sentence_start, sentence_end = enclosing_span(text, start, end)
    return {
        "sentence_start": offset + sentence_start,
        "sentence_end": offset + sentence_end,
        "long_quote": _word_count(text, start, end) > MAX_WORDS,
    }


# Controls, checklists and policies state duties in the imperative ("Develop, document, and
# disseminate ...", "- Use a password manager", "Please file this within your records"): a
# paragraph or list item that opens with a directive verb is an obligation even without a modal,
# and one that ends in a colon ("Include the following in the plan:") is the lead-in of the items
# below it. The verbs are the directive vocabulary of such texts. A ban in the imperative ("Do not
# click any links in the email.", "Never share ...") is one whatever its verb.
_DIRECTIVE_VERBS = frozenset(
    """
    accept adopt allocate analyse analyze apply approve assess assign audit authorize avoid
    back block book call cancel change check communicate complete comply conduct configure
    confirm connect consult contact coordinate correct create define delete describe designate
    destroy determine develop disable disclose dispose disseminate distribute document draft
    eliminate email employ enable encrypt enforce ensure escalate establish evaluate file fill
    follow forward identify implement include incorporate inform install integrate investigate
    keep limit lock log maintain make manage monitor notify obtain pay perform post prepare
    prevent produce prohibit protect provide publish reach receive record register remove
    report request require resolve respond restrict retain return review revoke safeguard
    sanitize schedule secure select send separate set share sign specify store submit talk test
    track train transmit turn update upload use validate verify
    """.split()  # noqa: SIM905 - a word list reads best as prose
)
# A verb joined to a second ("Review and update ...", "Correct or delete ...") directs only
# when the second is a directive verb too: "Review and approval of ..." names a task, and
# "Sign language interpreters ..." a thing.
_IMPERATIVE = re.compile(
    r"(?P<ban>(?:Do\s+not|DO\s+NOT|Don['’]t|Never)\s+)?(?P<please>Please\s+)?"
    r"(?P<verb>[A-Za-z][a-z]+)\b"
    r"(?!\s+(?:of|is|are|was|were|shall|must|may|will|has|have|means|language)\b)"
    r"(?:\s+(?:and|or)\s+(?P<second>\w+))?"
)


def _directive(verb: re.Match[str] | None) -> str | None:
    """The modality an imperative (`_IMPERATIVE`'s match) states, or None for none: a ban whatever
    its verb, a duty for a directive verb (and a second one joined to it), capitalised as a
    sentence opens ("Review ...", "Please review ...")."""
    if verb is None:
        return None
    word, second = verb.group("verb"), verb.group("second")
    if verb.group("ban"):
        return "prohibition" if word.islower() else None
    if word[0].isupper() == bool(verb.group("please")) or word.lower() not in _DIRECTIVE_VERBS:
        return None
    if second is not None and second not in _DIRECTIVE_VERBS:
        return None
    return "obligation"


def _imperative_clause(
    text: str, start: int, end: int, opens_list: bool = False
) -> DeonticClause | None:
    """A duty or ban stated as an imperative ("Review and update the policy ...", "Do not
    delete it"); not a question ("Back from your trip?"), which asks rather than directs."""
    verb = _IMPERATIVE.match(text, start, end)
    modality = _directive(verb)
    if verb is None or modality is None or "?" in text[start:end]:
        return None
    trigger = (verb.group("ban") or verb.group("verb")).strip()
    return DeonticClause(start, end, modality, trigger, None, "medium", opens_list)


# An imperative after a condition or purpose put first: "For a new system or application,
# complete a Privacy Threshold Analysis (PTA).", "If you need to book a hotel outside of Concur,
# check if booking comes with any nonrefundable fees.", "If you detect any unusual activity on your
# computer, DO NOT turn off your computer.". It opens a sentence; "For example, use
# of ..." names no act, and "For more information, check out ..." points to reading, not to a
# duty. The pattern first looks ahead for the initial letter of one of the opening words, a test
# that fails at once at most characters, where the two lookbehinds had been tried at every
# character of every paragraph (half the pattern's time on the bench corpus).
_OPENERS = (
    "For",
    "If",
    "When",
    "Once",
    "Before",
    "After",
    "To",
    "Where",
    "Within",
    "Unless",
    "Until",
    "Upon",
)
_FRONTED = re.compile(
    f"(?=[{''.join(sorted({word[0] for word in _OPENERS}))}])"
    r"(?:(?<![^\n])|(?<=[.!;] ))"
    r"(?!For\s+(?:example|instance|more|further|additional|some|questions)\b)"
    f"(?:{'|'.join(_OPENERS)})"
    r"\s[^,;:?\n]{2,120},\s+(?:please\s+)?"
    r"(?P<ban>(?:do\s+not|DO\s+NOT|don['’]t|never)\s+)?"
    r"(?P<verb>[a-z]+)\b(?!\s+(?:of|out|is|are|was|were|shall|must|may|will|has|have|means)\b)"
    r"(?:\s+(?:and|or)\s+(?P<second>[a-z]+)\b)?"
)


def _fronted_imperatives(
    text: str, start: int, end: int, clauses: list[tuple[int, int]]
) -> list[DeonticClause]:
    """The obligations stated as imperatives after a fronted condition or purpose in the
    paragraph text[start:end], each its whole sentence (up to 40 words), where no clause of
    `clauses` (document offsets) already quotes it."""
    found = []
    for lead in _FRONTED.finditer(text, start, end):
        verbs = (lead.group("verb"), lead.group("second") or lead.group("verb"))
        banned = lead.group("ban") is not None
        if not banned and not all(verb in _DIRECTIVE_VERBS for verb in verbs):
            continue
        sentence = next((s for s in sentence_spans(text, lead.start(), end)), None)
        span = _item_span(text, lead.start(), sentence[1]) if sentence else None
        if span is None or "?" in text[span[0] : span[1]] or not _is_sentence(text, *span):
            continue
        if any(s < span[1] and span[0] < e for s, e in clauses):
            continue
        modality = "prohibition" if banned else "obligation"
        trigger = lead.group("ban").strip() if banned else verbs[0]
        found.append(DeonticClause(*span, modality, trigger, None, "medium", False))
    return found


def _is_sentence(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] ends as a sentence or a clause of one does."""
    return text[start:end].rstrip().endswith((".", ";", "!"))


# An imperative's object described by the items below it: "Develop an incident response plan
# that: 1. Provides the organization with a roadmap ...; 2. Describes the structure ...". Each
# item is what the thing made must be or do, a requirement read with its lead-in; after a
# modal ("may disclose information that:") such items are the cases a duty holds in.
_OBJECT_LEAD = re.compile(r"\b(?:that|which)\W*$")


def _imperative_lead(text: str, start: int, end: int) -> DeonticClause | None:
    """The imperative paragraph text[start:end] as the lead-in of a list of requirements
    ("Include the following in the Incident Response Plan for breaches ...:" opens its items,
    as "Develop an incident response plan that:" does), or None when it does not end as one
    (a list of conditions: "... if:", "... unless:")."""
    stripped = text[start:end].rstrip()
    close = start + len(stripped)
    if not stripped.endswith(":"):
        return None
    if not (
        _opens_requirement_list(text, close)
        or _OBJECT_LEAD.search(text, max(start, close - 40), close)
    ):
        return None
    return _imperative_clause(text, start, close, opens_list=True)


_SPACE = re.compile(r"\s*")


def _opens_with_directive(text: str, start: int, end: int) -> bool:
    """Whether the list item text[start:end] opens as an imperative. Its quote (_item_span)
    starts at its first word, which it holds whole, so an item that does not is no imperative:
    most list items are spared finding their quote."""
    opens = _SPACE.match(text, start, end)
    return _directive(_IMPERATIVE.match(text, opens.end() if opens else start, end)) is not None


@dataclass(frozen=True, slots=True)
class _LeadIn:
    clause: DeonticClause
    quote: str
    start: int  # document offsets of the lead-in clause
    end: int
    depth: int  # label depth of the paragraph that opened the list
    # whether an unlabelled paragraph below it is one of its items: a statute's flush text under
    # "shall--" continues the list; a control's "Discussion:" after its items does not
    flush_items: bool = True


@dataclass(frozen=True, slots=True)
class _Subject:
    """A lead-in that names who its items bind and states no duty itself ("the chief of service
    of the hospital:", "A covered entity--"): an item that opens on its modal ("(A) Shall
    immediately notify ...") carries it, so its quote reads with its subject."""

    quote: str
    start: int  # document offsets
    end: int
    depth: int  # label depth of the paragraph


def _item_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The quote of an enumerated item: whole sentences up to 40 words, and a caption of up to
    six words ("Standard: Workforce security.") with the sentence after it, however long, which
    states the duty it names; a longer sentence is cut at the first phrase boundary after the
    quote's 40th word."""
    span_start, span_end, words = None, start, 0
    for s, e in sentence_spans(text, start, end):
        n = _word_count(text, s, e)
        if span_start is not None and words + n > MAX_WORDS and words > CAPTION_WORDS:
            break
        span_start = s if span_start is None else span_start
        span_end, words = e, words + n
        if words >= MIN_WORDS:
            break
    if span_start is None:
        return None
    words = _word_count(text, span_start, span_end)
    if words > MAX_WORDS:  # a long sentence: cut at a phrase boundary
        last = next(islice(_WORD.finditer(text, span_start, span_end), MAX_WORDS - 1, None))
        span_end = whole_span(text, span_start, last.end(), start)[1]
    quote = text[span_start:span_end]
    if words < 3 or quote.endswith(":"):
        return None  # a sub-heading such as "Implementation specifications:" is not an item
    return span_start, span_end


def _modal_item(
    text: str,
    start: int,
    end: int,
    lead: _LeadIn | None,
    clauses: list[DeonticClause],
    listed: bool,
) -> tuple[int, int] | None:
    """The quote of a list item text[start:end] (`listed`: it has a label or bullet) that is
    the predicate of its lead-in's modal, though a modal of its own is in it: it opens with a
    directive verb ("such substitute notice shall: ... (B) Include a toll-free number ... where
    an individual can learn whether the information may be included"), so its duty is the
    lead-in's and the modal belongs to a clause inside it. None for an item with no modal (the
    plain item rule quotes it), one with a subject of its own ("The commissioner may contract
    ..."), or one that opens a list of its own."""
    if not (clauses and listed and lead is not None and _BARE_MODAL.search(lead.quote)):
        return None
    if any(c.opens_list for c in clauses) or not _opens_with_directive(text, start, end):
        return None
    return _item_span(text, start, end)


def _opens_requirement_list(text: str, end: int) -> bool:
    """A lead-in opens a list of requirements, not of conditions ("... to the extent that:")."""
    return not CONDITION_LEAD.search(text, max(0, end - 40), end)


@dataclass(frozen=True, slots=True)
class Chunk:
    chunk_id: str
    doc_id: str
    section: str | None
    label_path: str | None
    char_start: int
    text: str

    @classmethod
    def of(cls, record: dict) -> Chunk:
        """A chunk from a row of the chunks table (other columns ignored)."""
        return cls(*[record[name] for name in CHUNK_COLUMNS])


CHUNK_COLUMNS = ["chunk_id", "doc_id", "section", "label_path", "char_start", "text"]


def _candidate(
    chunk: Chunk,
    path: str | None,
    start: int,
    end: int,
    clause: DeonticClause,
    confidence: str,
    lead: _LeadIn | _Subject | None,
) -> dict:
    quote = chunk.text[start:end]
    return {
        "doc_id": chunk.doc_id,
        "chunk_id": chunk.chunk_id,
        "label_path": path,
        "char_start": chunk.char_start + start,
        "char_end": chunk.char_start + end,
        "exact_quote": quote,
        "normalised_quote": normalised_quote(quote),
        "modality": clause.modality,
        "trigger": clause.trigger,
        "subject": clause.subject,
        "lead_in_quote": lead.quote if lead else None,
        "lead_in_start": lead.start if lead else None,
        "lead_in_end": lead.end if lead else None,
        "extraction_confidence": confidence,
        "extractor": EXTRACTOR_NAME,
        "extractor_version": EXTRACTOR_VERSION,
        "is_requirement": True,
        **quote_context(chunk.text, chunk.char_start, start, end),
    }


def document_candidates(chunks: list[Chunk]) -> list[dict]:
    """Requirement candidates of one document, given its chunks in order; those that are no
    requirement on their own (a lead-in, a citation note: nonrequirements.py) set aside."""
    rows: list[dict] = []
    stack = LabelStack.empty()
    lead: _LeadIn | None = None
    subject: _Subject | None = None
    section = chunks[0].section if chunks else None
    for chunk in chunks:
        text = chunk.text
        for para in paragraphs(text):
            if para.heading_level:
                stack.reset()
                lead = subject = None
                continue
            labels = stack.push(para.labels)
            depth = len(labels)
            bullet = _BULLET.match(text, para.label_end)
            body_start = bullet.end() if bullet else para.label_end
            if lead and not (depth > lead.depth or (bullet and depth >= lead.depth)):
                lead = None
            if lead and not (lead.flush_items or para.labels or bullet):
                lead = None
            if subject and depth <= subject.depth:
                subject = None
            path = label_path(section, labels) or None
            clauses = deontic_clauses(text[para.start : para.end])
            item = _modal_item(
                text, body_start, para.end, lead, clauses, bool(para.labels or bullet)
            )
            own = clauses  # the clauses quoted on their own: those after such an item's quote
            if item is not None and lead is not None:
                own = [c for c in clauses if para.start + c.start >= item[1]]
                rows.append(_candidate(chunk, path, *item, lead.clause, "medium", lead))
            for clause in own:
                s, e = para.start + clause.start, para.start + clause.end
                carried = subject if clause.trigger.split()[0] in ITEM_MODALS else None
                rows.append(_candidate(chunk, path, s, e, clause, clause.confidence, carried))
            # an item without a modal of its own is quoted under its lead-in (below): a series
            # of infinitives ("To borrow, accept, hire ...") must not read as a fronted purpose too
            led = None
            if not clauses and lead is not None:
                led = _item_span(text, body_start, para.end)
            quoted = [(para.start + c.start, para.start + c.end) for c in own]
            quoted += [span for span in (item, led) if span]
            for fronted in _fronted_imperatives(text, body_start, para.end, quoted):
                rows.append(
                    _candidate(chunk, path, fronted.start, fronted.end, fronted, "medium", None)
                )
            if not clauses and is_lead_in(text[body_start : para.end]):
                start = chunk.char_start + body_start
                quote = text[body_start : para.end].rstrip()
                subject = _Subject(quote, start, start + len(quote), depth)
            if not clauses and lead is not None:
                if led:
                    rows.append(_candidate(chunk, path, *led, lead.clause, "medium", lead))
            elif not clauses and _opens_with_directive(text, body_start, para.end):
                span = _item_span(text, body_start, para.end)
                if span and not (para.labels or bullet) and not _is_sentence(text, *span):
                    span = None  # a line such as "Follow TTS Incident Response Plan" heads text
                imperative = _imperative_clause(text, *span) if span else None
                if span and imperative:
                    rows.append(_candidate(chunk, path, *span, imperative, "medium", None))
                elif (opener := _imperative_lead(text, body_start, para.end)) is not None:
                    quote = text[opener.start : opener.end]
                    start = chunk.char_start + opener.start
                    lead = _LeadIn(opener, quote, start, start + len(quote), depth, False)
            opener = next((c for c in reversed(clauses) if c.opens_list), None)
            if opener is not None and _opens_requirement_list(text, para.start + opener.end):
                s, e = para.start + opener.start, para.start + opener.end
                lead = _LeadIn(opener, text[s:e], chunk.char_start + s, chunk.char_start + e, depth)
    return set_aside(rows)


def candidates(chunks: pa.Table) -> pa.Table:
    """Requirement candidates of a batch of chunks that holds whole documents, in order."""
    rows: list[dict] = []
    current: list[Chunk] = []
    # Column by column: a row dict per chunk would cost more than the values themselves.
    for chunk in map(Chunk, *[chunks.column(name).to_pylist() for name in CHUNK_COLUMNS]):
        if current and current[-1].doc_id != chunk.doc_id:
            rows.extend(document_candidates(current))
            current = []
        current.append(chunk)
    if current:
        rows.extend(document_candidates(current))
    return pa.Table.from_pylist(rows, schema=CANDIDATES_SCHEMA)


class RulesExtractor:
    """The offline rules as an `Extractor`: pure and picklable, so the stage maps them over
    worker processes."""

    in_processes: ClassVar[bool] = True

    def candidates(self, chunks: pa.Table) -> pa.Table:
        """Requirement candidates of chunks that hold whole documents, in order."""
        return candidates(chunks)
