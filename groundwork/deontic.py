"""Offline rules engine that finds requirement clauses in one paragraph of legal text.

Legal drafting marks duties with a small set of modal forms (`shall`, `must`, `is required to`,
`may not` ...), but the same words also build sentences that impose nothing: entry into force,
scope (`This part shall apply to`), deeming (`shall be deemed`), amendments (`is replaced by`),
definitions and rules of construction (`shall not affect`). The engine therefore finds every
modal trigger with one regex pass, reads the few words that follow it (the governed verb) and the
noun phrase before it (the subject), drops the non-operative uses, and grades the rest:

* high: a subject and an active, dynamic verb (`The Secretary shall publish ...`);
* medium: a passive or weaker form (`Records must be retained ...`, `is responsible for`);
* low: stative wording (`shall be valid`, `shall include`), provisions as subjects
  (`This section shall ...`), relative clauses, and quotes shorter than 10 words.

Quotes are verbatim spans of 10-40 words cut at clause boundaries. Everything is plain `re` with
module-level patterns, and paragraphs without a trigger cost a single regex search, because the
engine must keep up with hundreds of megabytes of text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

EXTRACTOR_NAME = "rules"
EXTRACTOR_VERSION = "1.0.0"

MIN_QUOTE_WORDS = 10
MAX_QUOTE_WORDS = 40
MAX_SUBJECT_WORDS = 12
REQUIREMENT_MODALITIES = frozenset({"obligation", "prohibition"})
_CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}


def _word_set(words: str) -> frozenset[str]:
    """A frozen set from white-space separated words, to keep the long word lists readable."""
    return frozenset(words.split())


@dataclass(frozen=True, slots=True)
class DeonticClause:
    """One requirement, prohibition or permission, quoted verbatim from the paragraph."""

    start: int
    end: int
    modality: str
    trigger: str
    subject: str | None
    confidence: str
    opens_list: bool


@dataclass(slots=True)
class _Reading:
    """What one trigger means in its sentence, before the quote is chosen."""

    start: int
    end: int
    modality: str
    confidence: str
    subject: tuple[int, int] | None

    @property
    def anchor(self) -> int:
        """Where the quote must begin at the latest: the subject, else the trigger."""
        return self.subject[0] if self.subject else self.start

    @property
    def rank(self) -> tuple[bool, int]:
        """Duties before permissions, then surer readings first."""
        return self.modality in REQUIREMENT_MODALITIES, _CONFIDENCE_RANK[self.confidence]


# --- triggers -------------------------------------------------------------------------------

_TRIGGER_RE = re.compile(
    r"""\b(?:
      (?P<unlawful>[Ii]t\s+is\s+unlawful)
    | (?P<duty>(?:is|are)\s+(?:required|obliged|obligated)\s+to
        | (?:has|have)\s+(?:a|the)\s+(?:duty|obligation)\s+to
        | (?:is|are)\s+under\s+(?:a|an)\s+(?:duty|obligation)\s+to)
    | (?P<responsible>(?:is|are)\s+responsible\s+for)
    | (?P<banned>(?:is|are)\s+(?:hereby\s+)?(?:prohibited|forbidden)(?:\s+from)?)
    | (?P<allowed>(?:is|are)\s+(?:hereby\s+)?(?:permitted|authori[sz]ed|allowed|entitled)\s+to)
    | (?P<modal>shall|must|may|SHALL|MUST)
      (?P<negation>\s+(?:not|never|NOT)(?!\s+(?:only|later|less|more|exceeding)\b)
        | \s+in\s+no\s+(?:case|event)
        | \s+under\s+no\s+circumstances?)?
    )\b""",
    re.VERBOSE,
)
_RELATIVE_WORDS = frozenset({"that", "which", "who", "whom", "whose", "as", "what"})
_PREVIOUS_WORD_RE = re.compile(r"([A-Za-z]+)\W*$")

# Adverbs and asides that may sit between a modal and its verb: `shall without delay notify`.
_ADVERBIAL_RE = re.compile(
    r"(?:\s+(?:also|only|further|then|thereafter|jointly|immediately|promptly|forthwith|duly"
    r"|still|either|both|at\s+once|without\s+delay|in\s+particular|as\s+a\s+general\s+rule"
    r"|at\s+(?:least|all\s+times)|where\s+(?:appropriate|necessary|possible|relevant)"
    r"|if\s+(?:necessary|possible|appropriate)|in\s+(?:any|all)\s+(?:events?|cases?)"
    r"|(?!(?:apply|supply|comply|rely|reply|multiply|imply)\b)[a-z]+ly)\b)*"
)
_ASIDE_RE = re.compile(r"\s*,[^,;:—–]{1,150}?(?:,|(?=[:—–]))")
_NEXT_WORD_RE = re.compile(r"\s*([^\W\d_][\w’'-]*|[:—–;,.(])")
# `shall apply` is a scope or commencement rule when nothing it could act on follows.
_INTRANSITIVE_APPLY_NEXT = _word_set(
    """, ; : . — – from to until as in on with where if when unless save without mutatis by
    only also accordingly equally for during after before notwithstanding irrespective subject
    insofar pursuant except and or in respect regard"""
)
_COMMENCEMENT = frozenset({"enter", "come", "expire", "lapse", "cease"})
_CONSTRUCTION = frozenset(
    {"affect", "prejudice", "preclude", "prevent", "impair", "supersede", "limit", "derogate"}
)
_DEEMING = frozenset(
    {"deemed", "considered", "construed", "regarded", "interpreted", "presumed", "read"}
)
_DEEMING_IF_AS = frozenset({"treated", "taken"})
_AMENDING = _word_set(
    """amended replaced inserted deleted added repealed substituted renumbered omitted struck
    redesignated cited known"""
)
_IN_FORCE = frozenset({"effective", "applicable", "binding", "operative", "void"})
_STATIVE = _word_set(
    """include includes contain comprise consist cover constitute exceed equal correspond amount
    represent relate refer concern reflect become mean means remain"""
)
_EPISTEMIC = _word_set(
    """include involve affect result cause occur arise exist vary differ contain lead pose
    constitute indicate reflect depend mean seem appear become need help benefit warrant
    jeopardise jeopardize impact influence concern relate consist well apply"""
)
_DUTY_ADJECTIVES = frozenset({"required", "obliged", "obligated", "bound"})
_LEAVE_WORDS = frozenset({"permitted", "authorised", "authorized", "allowed"})
_POWERS = frozenset({"right", "power", "powers", "authority", "option", "discretion"})
_IRREGULAR_PARTICIPLES = _word_set(
    """made paid sent kept held set put sold brought built found left lent met spent told won cut
    shut bound laid sought taught struck done borne run"""
)
_NOT_PARTICIPLES = _word_set(
    """open even often between green seven eleven citizen when then ten token heaven oxygen
    need speed red bed"""
)
_LEAD_IN_TOKENS = frozenset({":", "—", "–"})

# --- sentences, clauses and subjects --------------------------------------------------------

_LABELS_RE = re.compile(
    r"\s*(?:(?:\((?:\d{1,3}[a-z]?|[A-Za-z]{1,2}|[ivxlcdmIVXLCDM]{1,7})\)"
    r"|(?:\d{1,3}|[A-Za-z]|[ivxlc]{1,6})\.(?=\s))\s*)*"
)
_SENTENCE_END_RE = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z§])")
_ABBREVIATIONS = _word_set(
    """sec secs no nos art arts para paras subpara subparas subd ch chap cl pt pts p pp vol ed
    v vs inc co corp ltd dr mr mrs ms st jr sr gen stat pub fed reg regs cf viz approx dept div
    ann supp rev cir cong sess jan feb mar apr jun jul aug sep sept oct nov dec op id fig"""
)
_INITIALISM_RE = re.compile(r"(?:[A-Za-z]\.)*[A-Za-z]")
_CLAUSE_CUT_RE = re.compile(
    r"\s*;\s+|:\s+|,\s+(?:and|or|but)\s+|,\s+|\s+[—–]\s+|—"
    r"|\s+(?=\((?:[a-z]{1,2}|\d{1,3}|[ivxl]{1,6})\)\s)"
)
_SUBJECT_CUT_RE = re.compile(
    r"[,;:—–]\s*|(?:^|\s)\((?:[a-z]{1,2}|\d{1,3}|[ivxl]{1,6})\)\s+"
    r"|\s(?=(?:The|Each|Every|Any|All|Such|This|These|Those)\s|(?:A|An|No)\s+[a-z])"
)
_LEADING_LINK_RE = re.compile(
    r"(?:(?:and|or|but|then|also|however|moreover|furthermore|thereafter|in\s+addition)\b[\s,]*)+"
)
_SUBJECT_TAIL_RE = re.compile(
    r"\s+(?:which|that|who|whom|whose|where|when|if|referred\s+to|pursuant\s+to"
    r"|in\s+accordance\s+with|within\s+the\s+meaning|as\s+(?:referred|defined|provided|set"
    r"|laid|described|specified|listed))\b"
)
_SUBJECT_PREPOSITION_RE = re.compile(
    r"\s+(?:in|on|for|under|with|by|from|within|at|to|during|after|before|upon|through)\b"
)
_NEGATIVE_SUBJECT_RE = re.compile(r"[Nn]o\s+[a-z]|(?:[Nn]either|[Nn]one)\b")
_CONSTRUCTION_SUBJECT_RE = re.compile(r"[Nn]othing\b")
_DEFINED_TERM_SUBJECT_RE = re.compile(
    r"(?:[Tt]he|[Ss]uch|[Tt]hat)\s+terms?\b|[\"“‘'][^\"”’']{1,80}[\"”’']"
)
_PROVISION_SUBJECT_RE = re.compile(
    r"(?:(?:this|these|that|those|the|such|its)\s+)?(?:provisions?\s+of\s+(?:this\s+)?)?"
    r"(?:regulation|directive|decision|act|section|subsection|part|subpart|chapter|article"
    r"|paragraph|subparagraph|point|annex|appendix|provision|title|agreement|convention"
    r"|protocol|subdivision|clause|schedule)s?\b",
    re.IGNORECASE,
)
_DEFINITION_SENTENCE_RE = re.compile(
    r"^\W*(?:As\s+used\s+in\b|In\s+this\s+\w+,\s+the\s+term)"
    r"|[\"“‘'][^\"”’']{1,80}[\"”’']\s*(?:,\s*)?(?:means|shall\s+mean|includes|has\s+the\s+meaning"
    r"|refers\s+to)\b"
)
_UNLAWFUL_FOR_RE = re.compile(r"\s+for\s+([^,;:]{1,80}?)\s+to\b")
_TRAILING_JUNK_RE = re.compile(r"(?:[\s;,]+|\s+(?:and|or)\b)+$")
_WORD_RE = re.compile(r"\S+")


# --- public interface ------------------------------------------------------------------------


def deontic_clauses(text: str) -> list[DeonticClause]:
    """Every requirement clause in one paragraph of legal text, in order, non-overlapping."""
    body = _body_start(text)
    matches = list(_TRIGGER_RE.finditer(text, body))
    if not matches or _is_heading(text, body):
        return []
    sentences = _sentence_spans(text, body)
    starts = [s for s, _ in sentences]
    by_sentence: dict[int, list[_Reading]] = {}
    for match in matches:
        index = bisect_right(starts, match.start()) - 1
        sentence = sentences[index]
        reading = _reading(text, match, sentence)
        if reading is not None and not _is_definition(text, sentence):
            by_sentence.setdefault(index, []).append(reading)
    clauses: list[DeonticClause] = []
    floor = body
    for index, readings in by_sentence.items():
        for clause in _sentence_clauses(text, sentences[index], readings, floor):
            clauses.append(clause)
            floor = clause.end
    return clauses


def is_requirement(sentence: str) -> bool:
    """Sentence-level decision: does the sentence impose a duty or a prohibition?

    Permissions are extracted for the register but do not count, and neither do low-confidence
    readings (stative or fragmentary wording), because a requirement register that flags
    `This Decision shall apply from 1 May` or `It shall be renewable` wastes a reviewer's time.
    """
    return any(
        c.modality in REQUIREMENT_MODALITIES and c.confidence != "low"
        for c in deontic_clauses(sentence)
    )


# --- paragraph structure ---------------------------------------------------------------------


def _body_start(text: str) -> int:
    """Offset after the leading list labels (`(a)`, `(1)(i)`, `1.`, `a.`) of the paragraph."""
    return _LABELS_RE.match(text).end()


def _is_heading(text: str, body: int) -> bool:
    """Markdown headings and short unpunctuated title lines state no requirement."""
    if text.startswith("#"):
        return True
    return text.rstrip()[-1:].isalnum() and _word_count(text, body, len(text)) <= MAX_SUBJECT_WORDS


def _sentence_spans(text: str, start: int) -> list[tuple[int, int]]:
    """(start, end) of each sentence from start on; a period after an abbreviation ends none."""
    spans = []
    cursor = start
    for match in _SENTENCE_END_RE.finditer(text, start):
        if _is_abbreviation(text, cursor, match.start()):
            continue
        spans.append((cursor, match.start() + len(match.group().rstrip())))
        cursor = match.end()
    spans.append((cursor, len(text.rstrip())))
    return spans


def _is_abbreviation(text: str, floor: int, dot: int) -> bool:
    """True when the word before the period at dot is an abbreviation such as `U.S.C` or `Sec`."""
    word = text[max(floor, text.rfind(" ", floor, dot) + 1) : dot].lstrip("([\"“‘'")
    return word.lower() in _ABBREVIATIONS or _INITIALISM_RE.fullmatch(word) is not None


def _is_definition(text: str, sentence: tuple[int, int]) -> bool:
    """Definitions (`"X" means`, `As used in this part`) impose nothing, whatever their modals."""
    return _DEFINITION_SENTENCE_RE.search(text, sentence[0], sentence[1]) is not None


# --- reading one trigger ---------------------------------------------------------------------


def _reading(text: str, match: re.Match[str], sentence: tuple[int, int]) -> _Reading | None:
    """The modality and confidence of one trigger, or None when it makes no requirement."""
    kind = match.lastgroup if match.group("modal") is None else "modal"
    start, end = match.span()
    relative = _previous_word(text, sentence[0], start) in _RELATIVE_WORDS
    subject = None if kind == "unlawful" else _subject_span(text, sentence[0], start)
    subject_text = text[subject[0] : subject[1]] if subject else ""
    if _CONSTRUCTION_SUBJECT_RE.match(subject_text) or _DEFINED_TERM_SUBJECT_RE.match(subject_text):
        return None
    if kind == "modal":
        verdict = _modal_verdict(text, match)
        if verdict is None:
            return None
        modality, confidence, end = verdict
        if match.group("modal") == "may" and relative:
            return None
    else:
        if relative:
            return None
        modality, confidence = _PHRASE_READINGS[kind]
        if kind == "unlawful":
            subject = _unlawful_subject(text, end)
    if modality != "prohibition" and _NEGATIVE_SUBJECT_RE.match(subject_text):
        modality = "prohibition"
    if relative or _PROVISION_SUBJECT_RE.match(subject_text):
        confidence = "low"
    elif subject is None and confidence == "high":
        confidence = "medium"
    return _Reading(start, end, modality, confidence, subject)


_PHRASE_READINGS = {
    "unlawful": ("prohibition", "high"),
    "duty": ("obligation", "high"),
    "responsible": ("obligation", "medium"),
    "banned": ("prohibition", "medium"),
    "allowed": ("permission", "high"),
}


def _previous_word(text: str, floor: int, position: int) -> str:
    """The word just before position within the sentence, lower-cased."""
    found = _PREVIOUS_WORD_RE.search(text, max(floor, position - 30), position)
    return found.group(1).lower() if found else ""


def _modal_verdict(text: str, match: re.Match[str]) -> tuple[str, str, int] | None:
    """Modality, confidence and trigger end for shall/must/may, from the verb they govern."""
    modal = match.group("modal").lower()
    negated = match.group("negation") is not None
    head, second, third = _governed_words(text, match.end())
    if modal == "may":
        return _may_verdict(negated, head, second, match.end())
    modality = "prohibition" if negated else "obligation"
    if head in _LEAD_IN_TOKENS or head == "":
        return modality, "high", match.end()
    if head == "be":
        return _be_verdict(modality, second, third, match.end())
    if head == "have":
        return _have_verdict(modality, second, third, match.end())
    if _is_non_operative_verb(head, second, third, negated):
        return None
    return modality, "low" if head in _STATIVE else "high", match.end()


def _may_verdict(negated: bool, head: str, second: str, end: int) -> tuple[str, str, int] | None:
    """`may` grants a permission (`may not` forbids) unless it only says what is possible."""
    modality = "prohibition" if negated else "permission"
    if head in _EPISTEMIC or head in _COMMENCEMENT:
        return None
    if head == "be":
        if not _is_participle(second) or second in _DEEMING or second in _AMENDING:
            return None
        return modality, "medium", end
    if head == "have":
        return None
    return modality, "high", end


def _be_verdict(modality: str, word: str, after: str, end: int) -> tuple[str, str, int] | None:
    """`shall be ...`: passive duties, stated rights and bans, or non-operative deeming."""
    negated = modality == "prohibition"
    if word in _DEEMING or word in _AMENDING or word in _IN_FORCE or word == "without":
        return None
    if word in _DEEMING_IF_AS and after in {"as", "to", "like"}:
        return None
    if word in _DUTY_ADJECTIVES and after == "to":
        return None if negated else ("obligation", "high", end)
    if word == "entitled" or (word in _LEAVE_WORDS and after == "to"):
        return ("prohibition", "medium", end) if negated else ("permission", "medium", end)
    if word in {"prohibited", "forbidden", "unlawful"}:
        return None if negated else ("prohibition", "medium", end)
    if word == "responsible":
        return modality, "medium", end
    if _is_participle(word):
        return modality, "medium", end
    return modality, "low", end


def _have_verdict(modality: str, word: str, after: str, end: int) -> tuple[str, str, int] | None:
    """`shall have ...`: a conferred right or power, an effect rule, or a stative description."""
    if word == "effect":
        return None
    if word in {"the", "a", "an"} and after in _POWERS:
        return "permission", "medium", end
    if word == "regard":
        return modality, "high", end
    return modality, "low", end


def _is_non_operative_verb(head: str, second: str, third: str, negated: bool) -> bool:
    """Commencement, scope, meaning and construction verbs that impose no duty."""
    if head in _COMMENCEMENT or head in {"mean", "means"}:
        return True
    if head in {"apply", "applies"}:
        return second in _INTRANSITIVE_APPLY_NEXT or second == ""
    if head == "take" and second == "effect":
        return True
    if head == "continue" and second == "to" and third in {"apply", "have"}:
        return True
    if head == "remain" and second in {"in", "applicable", "valid", "unchanged"}:
        return True
    return negated and (head in _CONSTRUCTION or (head == "be" and second == "construed"))


def _governed_words(text: str, position: int) -> tuple[str, str, str]:
    """The first three words of the governed verb phrase, skipping adverbs and one aside.

    `shall, within 30 days, notify` gives `notify`; `must, in accordance with § 164.306:` gives
    `:` because the verb comes in the list that follows. Adverbs after `be` are skipped too, so
    `shall at once be communicated` reads as `be communicated`.
    """
    aside = _ASIDE_RE.match(text, position)
    if aside:
        position = aside.end()
    words: list[str] = []
    while len(words) < 3:
        if not words or words[-1] in {"be", "have"}:
            position = _ADVERBIAL_RE.match(text, position).end()
        found = _NEXT_WORD_RE.match(text, position)
        if not found:
            break
        words.append(found.group(1).lower())
        position = found.end()
    words += [""] * (3 - len(words))
    return words[0], words[1], words[2]


def _is_participle(word: str) -> bool:
    """Rough past-participle test, enough to tell `be disclosed` from `be necessary`."""
    if word in _IRREGULAR_PARTICIPLES:
        return True
    return word.endswith(("ed", "en", "wn", "ne")) and word not in _NOT_PARTICIPLES


# --- subjects ----------------------------------------------------------------------------------


def _subject_span(text: str, floor: int, trigger: int) -> tuple[int, int] | None:
    """The noun phrase the trigger binds, e.g. `A covered entity` or `the Secretary`."""
    low = max(floor, trigger - 300)
    end = len(text[low:trigger].rstrip()) + low
    if text[end - 1 : end] == ",":
        aside = text.rfind(",", low, end - 1)
        if aside < 0:
            return None
        end = aside
    begin = low
    for cut in _SUBJECT_CUT_RE.finditer(text, low, end):
        begin = cut.end()
    link = _LEADING_LINK_RE.match(text, begin, end)
    if link:
        begin = link.end()
    tail = _SUBJECT_TAIL_RE.search(text, begin + 1, end)
    if tail:
        end = tail.start()
    if len(text[begin:end].split()) > MAX_SUBJECT_WORDS:
        preposition = _SUBJECT_PREPOSITION_RE.search(text, begin + 1, end)
        if preposition:
            end = preposition.start()
    phrase = text[begin:end]
    if not any(ch.isalpha() for ch in phrase) or len(phrase.split()) > MAX_SUBJECT_WORDS:
        return None
    return begin + len(phrase) - len(phrase.lstrip()), begin + len(phrase.rstrip())


def _unlawful_subject(text: str, end: int) -> tuple[int, int] | None:
    """`It is unlawful for any person to ...` binds `any person`."""
    found = _UNLAWFUL_FOR_RE.match(text, end)
    return found.span(1) if found else None


# --- quotes ------------------------------------------------------------------------------------


def _sentence_clauses(
    text: str, sentence: tuple[int, int], readings: list[_Reading], floor: int
) -> list[DeonticClause]:
    """One clause per group of triggers that fits a 10-40 word quote inside the sentence."""
    cuts = [(m.start(), m.end()) for m in _CLAUSE_CUT_RE.finditer(text, *sentence)]
    groups = _trigger_groups(text, sentence, readings, cuts)
    clauses = []
    for (region_start, region_end), members in groups:
        primary = max(members, key=lambda r: (r.rank, -r.start))
        if primary.subject is None:
            primary.subject = next((r.subject for r in members if r.subject), None)
        start, end = _quote_span(text, (max(region_start, floor), region_end), primary, cuts)
        start, end = _extended_backwards(text, start, end, floor)
        clauses.append(_clause(text, start, end, primary))
        floor = end
    return clauses


def _trigger_groups(
    text: str,
    sentence: tuple[int, int],
    readings: list[_Reading],
    cuts: list[tuple[int, int]],
) -> list[tuple[tuple[int, int], list[_Reading]]]:
    """Split the sentence into regions, one per trigger clause, merging any that fit together.

    A region runs from the start of the clause segment holding a trigger's subject to the start
    of the next one; neighbours merge while the merged region stays within 40 words or either is
    too short to quote alone.
    """
    cut_ends = [e for _, e in cuts]
    groups: list[tuple[tuple[int, int], list[_Reading]]] = []
    for reading in readings:
        segment = cut_ends[bisect_right(cut_ends, reading.anchor) - 1] if cuts else sentence[0]
        begin = max(sentence[0], min(segment, reading.anchor))
        if cuts and reading.anchor < cut_ends[0]:
            begin = sentence[0]
        if groups and begin <= groups[-1][0][0]:
            groups[-1][1].append(reading)
            continue
        if groups:
            groups[-1] = ((groups[-1][0][0], begin), groups[-1][1])
        groups.append(((begin, sentence[1]), [reading]))
    merged = [groups[0]]
    for region, members in groups[1:]:
        last_region, last_members = merged[-1]
        together = _word_count(text, last_region[0], region[1])
        if (
            together <= MAX_QUOTE_WORDS
            or min(_word_count(text, *last_region), _word_count(text, *region)) < MIN_QUOTE_WORDS
        ):
            merged[-1] = ((last_region[0], region[1]), last_members + members)
        else:
            merged.append((region, members))
    return merged


def _quote_span(
    text: str, region: tuple[int, int], reading: _Reading, cuts: list[tuple[int, int]]
) -> tuple[int, int]:
    """The quote inside region: the whole region if it fits, else the trigger's clause.

    The quote starts at the last clause boundary before the subject and ends at the farthest
    boundary that keeps it within 40 words; with no such boundary it ends at the 40th word.
    """
    start, end = region
    if _word_count(text, start, end) <= MAX_QUOTE_WORDS:
        return _stripped(text, start, end)
    anchor = max(start, reading.anchor)
    start = max([start] + [e for _, e in cuts if start <= e <= anchor])
    if _word_count(text, start, reading.end) > MAX_QUOTE_WORDS - 5:
        start = anchor
    ends = [s for s, _ in cuts if reading.end < s < end] + [end]
    fitting = [e for e in ends if _word_count(text, start, e) <= MAX_QUOTE_WORDS]
    if fitting:
        end = fitting[-1]
    else:
        words = list(_WORD_RE.finditer(text, start, end))
        end = words[MAX_QUOTE_WORDS - 1].end()
    if _word_count(text, start, end) < MIN_QUOTE_WORDS:
        wider = [e for e in ends if _word_count(text, start, e) <= MAX_QUOTE_WORDS]
        end = wider[-1] if wider else end
    return _stripped(text, start, end)


def _extended_backwards(text: str, start: int, end: int, floor: int) -> tuple[int, int]:
    """Extend a quote under 10 words back over earlier words of the paragraph (label, heading)."""
    if _word_count(text, start, end) >= MIN_QUOTE_WORDS:
        return start, end
    before = list(_WORD_RE.finditer(text, floor, start))
    missing = MIN_QUOTE_WORDS - _word_count(text, start, end)
    if len(before) < missing:
        return start, end
    return before[-missing].start(), end


def _clause(text: str, start: int, end: int, reading: _Reading) -> DeonticClause:
    """The public clause for a chosen quote and trigger reading."""
    confidence = reading.confidence
    if _word_count(text, start, end) < MIN_QUOTE_WORDS:
        confidence = "low"
    subject = text[reading.subject[0] : reading.subject[1]] if reading.subject else None
    return DeonticClause(
        start=start,
        end=end,
        modality=reading.modality,
        trigger=text[reading.start : reading.end],
        subject=subject,
        confidence=confidence,
        opens_list=_opens_list(text, end),
    )


def _opens_list(text: str, end: int) -> bool:
    """True when the quote ends a lead-in: `shall:`, `must—`, `the following:` before a list."""
    last = text[end - 1 : end]
    if last in {":", "—", "–"}:
        return True
    rest = text[end : end + 3].lstrip()
    return rest[:1] in {":", "—", "–"}


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """Span without outer white space and without a trailing `;`, `,`, ` and` or ` or`."""
    junk = _TRAILING_JUNK_RE.search(text, start, end)
    if junk:
        end = junk.start()
    while start < end and text[start].isspace():
        start += 1
    return start, end


def _word_count(text: str, start: int, end: int) -> int:
    """Number of white-space separated words in text[start:end]."""
    return len(text[start:end].split())


__all__ = [
    "EXTRACTOR_NAME",
    "EXTRACTOR_VERSION",
    "DeonticClause",
    "deontic_clauses",
    "is_requirement",
]
