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
  (`This section shall ...`), triggers inside relative clauses or conditions, and quotes
  shorter than 10 words.

`is_requirement`, the sentence-level decision, counts only high-confidence duties and
prohibitions: a rule that binds a named agent.

Quotes are verbatim: the trigger's clause, 10-40 words where one fits between clause boundaries,
then widened to the edges of its sentence or of a clause the sentence closes with `;` or `:`
(phrases.py): a quote may run past 40 words, but never stops or opens inside a phrase to meet
the budget. Everything is plain `re` with
module-level patterns, and paragraphs without a trigger cost a single regex search, because the
engine must keep up with hundreds of megabytes of text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import islice

from groundwork.extract.phrases import starts_inside, whole_span
from groundwork.text.sentences import sentence_spans
from groundwork.wording.grammar import (
    ABSOLUTE_NEGATION,
    BAN_PARTICIPLES,
    COMMA_ASIDE,
    DEFINING_PARTICIPLES,
    DUTY_PARTICIPLES,
    EPISTEMIC_VERBS,
    LEAVE_PARTICIPLES,
    NOT_A_NEGATION,
    PARTY_DETERMINERS,
    PREPOSITIONS,
    RELATIVE_WORDS,
    STATUTE_PRONOUNS,
    either,
)
from groundwork.wording.lists import words

EXTRACTOR_NAME = "rules"
EXTRACTOR_VERSION = "1.20.0"  # 1.20.0: seven more directive verbs (Draft, Sanitize, Connect ...)

MIN_QUOTE_WORDS = 10
MAX_QUOTE_WORDS = 40
MAX_SUBJECT_WORDS = 12
MAX_HEADING_WORDS = 12
REQUIREMENT_MODALITIES = frozenset({"obligation", "prohibition"})
_CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}


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
    funded: bool = False  # a grant's condition: its lead-in may end on a citation, "(a)(1)"

    @property
    def anchor(self) -> int:
        """Where the quote must begin at the latest: the subject (if before), else the trigger."""
        return min(self.subject[0], self.start) if self.subject else self.start

    @property
    def graded(self) -> str:
        """Confidence once the subject is known: a trigger that binds no one is never high."""
        if self.subject is None and self.confidence == "high":
            return "medium"
        return self.confidence

    @property
    def rank(self) -> tuple[bool, bool, int]:
        """Which trigger speaks for a shared quote: a sure reading before a doubtful one, then
        duties before permissions, then the surer reading."""
        graded = self.graded
        return graded != "low", self.modality in REQUIREMENT_MODALITIES, _CONFIDENCE_RANK[graded]


# --- triggers -------------------------------------------------------------------------------

# The lookahead names the first two letters of every alternative (It/it, is, are, will, has,
# have, shall, must, may, SHALL, MUST, funding, you, we): it changes no match, and the regex
# engine rejects most positions with it instead of trying each alternative (the scan takes half
# the time). A grant statute conditions its money in its own idiom: "A funding agreement for a grant
# under section 300x of this title is that the State involved will ...", a duty of the State.
_TRIGGER_RE = re.compile(
    rf"""\b(?=[IiawhsmSMFf][tsriahuHU]|[Yy]o|[Ww]e)(?:
      (?P<unlawful>[Ii]t\s+is\s+unlawful)
    | (?P<funded>[Ff]unding\s+agreement\b[^.;:]{{0,160}}?\bis\s+that)
    | (?P<critical>[Ii]t\s+is\s+(?:critical|essential|mandatory|imperative|vital)\s+(?:that|to))
    | (?P<need>(?:[Yy]ou|[Ww]e)(?:['’]ll|\s+will)?
          (?P<need_not>\s+(?:do\s+not|don['’]t|will\s+not|won['’]t))?
          (?:\s+(?:also|still|first|then))?\s+(?:need|have)\s+to)
    | (?P<should>(?:[Yy]ou|[Ww]e)(?:\s+(?:also|still|first|then|always|only))?\s+should
          (?P<should_not>\s+(?:not|never))?
          (?!\s+(?:see|receive|get|hear|expect|notice|find|know|feel|have|be)\b))
    | (?P<can>(?:[Yy]ou(?:\s+(?:also|still|only))?\s+can
              |[Ww]e\s+can(?=not|['’]t|\s+not|\s+never))
          (?P<cannot>not|['’]t|\s+not|\s+never)?
          (?!\s+(?:see|find|expect|hear|notice|know|feel|learn|read|view|visit|reach|contact
                    |check|look|ask|call|email|follow|get|be|do|go|install|refer|click
                    |verify|simply|always|even)\b))
    | (?P<duty>(?:is|are|will\s+be)\s+(?:(?:also|still|further|hereby|therefore|\w+ly)\s+)?
          (?:{either(DUTY_PARTICIPLES)})\s+to
        | (?:has|have)\s+(?:a|the)\s+(?:duty|obligation)\s+to
        | (?:is|are)\s+under\s+(?:a|an)\s+(?:duty|obligation)\s+to)
    | (?P<exempt>(?:is|are)\s+not\s+(?:required|obliged|obligated)
          (?=\s+(?:to|if|for|when|unless)\b))
    | (?P<responsible>(?:is|are)\s+responsible\s+for)
    | (?P<right>(?<!not\s)(?<!shall\s)(?<!may\s)(?<!will\s)(?<!must\s)
          (?:has|have)\s+(?:a|the)\s+right\s+(?:to|of))
    | (?P<banned>(?:is|are)\s+(?:hereby\s+)?(?:{either(BAN_PARTICIPLES)})(?:\s+from)?
        | (?:is|are)\s+not\s+(?:{either(LEAVE_PARTICIPLES)})(?:\s+to)?)
    | (?P<mandatory>(?:is|are)\s+mandatory(?!\s+or\b))
    | (?P<allowed>(?:is|are)\s+(?:hereby\s+)?
          (?:{either((*LEAVE_PARTICIPLES, "entitled", "empowered"))})\s+to)
    | (?P<modal>shall|must|may|SHALL|MUST|Shall|Must|May)
      (?P<negation>\s+(?:not|never|NOT)(?!\s+(?:{either((*NOT_A_NEGATION, "exceeding"))})\b)
        | \s+(?:{ABSOLUTE_NEGATION}))?
    )\b""",
    re.VERBOSE,
)
# Every trigger holds one of these words, and `in` finds them at memory speed: a paragraph
# without any (much of the text) skips the trigger regex, which scans far slower.
_TRIGGER_WORDS = (
    *"""shall must may SHALL MUST required obliged obligat mandated duty responsible prohibited
    forbidden permitted authorised authorized allowed entitled empowered unlawful critical
    essential mandatory imperative vital unding May Must Shall should""".split(),  # noqa: SIM905 - the commonest first
    "need to",
    "have to",
    "right to",
    "right of",
    "ou can",
    "We can",
    "we can",
)
_CONJUNCTIONS = frozenset({"and", "or", "but", "then"})
# A trigger inside a relative clause (`information that must be kept`, `uses that it is
# permitted to make`, `to whom the covered entity may disclose`) qualifies a noun; it is not the
# sentence's own rule.
_RELATIVE_RE = re.compile(
    r"\b(?:(?:that|which|who|whom|whose|as|what)(?:\s+(?:it|they|he|she|we|you))?"
    r"|(?:which|whom|whose|what)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)\s+$"
)
_PREVIOUS_WORD_RE = re.compile(r"([A-Za-z]+)\W*$")

# Adverbs and asides that may sit between a modal and its verb: `shall without delay notify`.
_ADVERBIAL_RE = re.compile(
    r"(?:\s+(?:also|only|further|then|thereafter|jointly|immediately|promptly|forthwith|duly"
    r"|still|either|both|at\s+once|without\s+delay|in\s+particular|as\s+a\s+general\s+rule"
    r"|at\s+(?:least|all\s+times)|where\s+(?:appropriate|necessary|possible|relevant)"
    r"|if\s+(?:necessary|possible|appropriate)|in\s+(?:any|all)\s+(?:events?|cases?)"
    r"|(?!(?:apply|supply|comply|rely|reply|multiply|imply)\b)[a-z]+ly)\b)*"
)
_ASIDE_RE = re.compile(COMMA_ASIDE)
# "may apply" asks for something ("A person may apply to a public or private hospital ... to
# become a voluntary patient", "may apply for a waiver", "may apply to the court for permission"):
# a permission, where "such rules may apply to a member" only says what is possible
# (epistemic_verbs.txt).
_APPLICATION_RE = re.compile(
    r"\s+(?:for|on\s+behalf|to\s+be)\b"
    r"|\s+to\s[^.;:]{1,120}?\b(?:for|to\s+(?:be|become|obtain|receive|have))\b"
)
_NEXT_WORD_RE = re.compile(r"\s*([^\W\d_][\w’'-]*|[:—–;,.(])")
# `shall apply` is a scope or commencement rule when nothing it could act on follows.
_INTRANSITIVE_APPLY_NEXT = words("statute/apply_intransitive_next")
_TERMINATION = frozenset({"expire", "lapse", "cease"})
_INTO_FORCE = frozenset({"force", "effect", "operation"})
_CONSTRUCTION = frozenset(
    {"affect", "prejudice", "preclude", "prevent", "impair", "supersede", "limit", "derogate"}
)
_DEEMING = frozenset(
    {"deemed", "considered", "construed", "regarded", "interpreted", "presumed", "read"}
)
_DEEMING_IF_AS = frozenset({"treated", "taken"})
_AS_WORDS = frozenset({"as", "to", "like"})
_AMENDING = words("statute/amending_participles")
_IN_FORCE = frozenset({"effective", "applicable", "binding", "operative", "void"})
_STATIVE = words("statute/stative_verbs")
# `The period shall begin on ...` dates an event; `shall start reporting` is an act.
_INCEPTIVE = frozenset({"begin", "start", "commence", "end"})
# The claim reader's epistemic verbs and the statute's own (see groundwork.wording.grammar).
_EPISTEMIC = EPISTEMIC_VERBS | words("statute/epistemic_verbs")
_DUTY_ADJECTIVES = frozenset({"required", "obliged", "obligated", "bound"})
_LEAVE_WORDS = frozenset({"permitted", "authorised", "authorized", "allowed"})
_DUTY_NOUNS = frozenset({"duty", "obligation", "responsibility"})
_POWERS = frozenset({"right", "power", "powers", "authority", "option", "discretion"})
_IRREGULAR_PARTICIPLES = words("statute/irregular_participles")
_NOT_PARTICIPLES = words("statute/not_participles")
_LEAD_IN_TOKENS = frozenset({":", "—", "–", "-"})
_OWNERS = frozenset({"its", "their", "his", "her"})
# Participles whose `by` introduces an amount, an attachment or a rule rather than an actor.
_NON_AGENT_PARTICIPLES = words("statute/non_agent_participles")
# A statute names its agents with more determiners than a claim does ("by every", "by their").
_AGENT_DETERMINERS = (*PARTY_DETERMINERS, "every", "their", "his", "her", "that", "those", "these")
# A passive that names who acts (`shall be granted by the competent authority`) binds an agent.
_BY_AGENT_RE = re.compile(
    r"(?:\s+(?:up|out|off|down|over|back))?(?:\s+[a-z]+ly)?\s+by\s+"
    r"(?!(?:way|means|reference|virtue|analogy|the\s+following)\b)"
    rf"(?:(?:{either(_AGENT_DETERMINERS)})\s|[A-Z])"
)

# --- sentences, clauses and subjects --------------------------------------------------------

_LABELS_RE = re.compile(
    r"\s*(?:[-*+]\s+)?(?:(?:\((?:\d{1,3}[a-z]?|[A-Za-z]{1,2}|[ivxlcdmIVXLCDM]{1,7})(?:-\d{1,2})?\)"
    r"|(?:\d{1,3}|[A-Za-z]|[ivxlc]{1,6})\.(?=\s))\s*)*"
)
# The lookahead names the first character of every alternative: it changes no match, and the
# regex engine rejects most positions with it instead of trying each alternative.
_CLAUSE_CUT_RE = re.compile(
    r"(?=[\s;:,—])(?:\s*;\s+|:\s+|,\s+(?:and|or|but)\s+|,\s+|\s+[—–]\s+|—"
    r"|\s+(?=\((?:[a-z]{1,2}|\d{1,3}|[ivxl]{1,6})\)\s))"
)
_SUBJECT_CUT_RE = re.compile(
    r"[,;:—–]\s*|(?<![\w)])\((?:[a-z]{1,2}|\d{1,3}|[ivxl]{1,6})\)\s+"
    r"|\s(?=(?:The|Each|Every|Any|All|Such|This|These|Those)\s|(?:A|An|No)\s+[a-z])"
)
_DANGLING_CONJUNCTION_RE = re.compile(r"\s(?:and|or|but)$")
_SUBORDINATOR_RE = re.compile(
    r"(?:if|when|whenever|where|unless|whether|although|though|because|since|once|until|while"
    r"|in\s+case)\s+",
    re.IGNORECASE,
)
# A trigger a few words after a subordinator sits in a condition (`If you are required to
# provide a notice, you must ...`, `Should you need to rebook, read ...`): it qualifies the rule
# rather than stating it. The lookahead (the alternatives' first letters) changes no match and
# spares most positions of the search.
_CONDITION_RE = re.compile(
    r"(?=[IiWwUuOoS])\b(?:[Ii]f|[Ww]hen|[Ww]henever|[Ww]here|[Uu]nless|[Ww]hether|[Oo]nce|Should)\s+"
    r"(?:[\w’'-]+\s+){0,4}$"
)
_PRONOUNS = STATUTE_PRONOUNS
_CONJUNCTION_RE = re.compile(r"\b(?:and|but|or|while|whereas)\s+")
_LEADING_LINK_RE = re.compile(
    r"(?:(?:and|or|but|that|then|also|however|moreover|furthermore|thereafter|in\s+addition"
    r"|except|provided|save|so)\b[\s,]*)+"
)
_SUBJECT_TAIL_RE = re.compile(
    rf"\s+(?:{either((*RELATIVE_WORDS, 'if'))}|referred\s+to|pursuant\s+to"
    r"|in\s+accordance\s+with|within\s+the\s+meaning|as\s+(?:"
    + either((*DEFINING_PARTICIPLES, "referred", "set", "laid", "listed"))
    + r"))\b"
)
_SUBJECT_PREPOSITION_RE = re.compile(rf"\s+(?:{either(PREPOSITIONS)})\b")
_PREPOSITION_START_RE = re.compile(
    rf"(?:{either((*PREPOSITIONS, 'which', 'who', 'whom', 'whose'))})\b", re.IGNORECASE
)
_NEGATIVE_SUBJECT_RE = re.compile(r"[Nn]o\s+[a-z]|(?:[Nn]either|[Nn]one)\b")
_CONSTRUCTION_SUBJECT_RE = re.compile(r"[Nn]othing\b")
_DEFINED_TERM_SUBJECT_RE = re.compile(
    r"(?:[Tt]he|[Ss]uch|[Tt]hat)\s+terms?\b|[\"“‘'][^\"”’']{1,80}[\"”’']"
)
# A provision or instrument as subject (`This section`, `Articles 42 to 58`, `The provisions of
# this Regulation`) describes the law itself rather than binding anyone.
_PROVISION_SUBJECT_RE = re.compile(
    r"(?:(?:this|these|that|those|the|such|its)\s+)?(?:provisions?\s+of\s+(?:this\s+)?)?"
    r"(?:regulation|directive|decision|act|section|subsection|part|subpart|chapter|article"
    r"|paragraph|subparagraph|point|annex|appendix|provision|title|agreement|convention"
    r"|protocol|subdivision|clause|schedule)s?"
    r"(?:\s+[\dA-Z][\w().-]*(?:\s+(?:to|and|or)\s+[\dA-Z][\w().-]*)?)?"
    r"(?:\s+of\s+(?:this|that|the)\s+\w+)?",
    re.IGNORECASE,
)
_DEFINITION_OPENING_RE = re.compile(r"\W*(?:As\s+used\s+in\b|In\s+this\s+\w+,\s+the\s+terms?\b)")
_DEFINED_TERM_RE = re.compile(
    r"[\"“‘'][^\"”’']{1,80}[\"”’']\s*(?:,\s*)?(?:means|shall\s+mean|includes|has\s+the\s+meaning"
    r"|refers\s+to)\b"
)
# `It is unlawful for any person to`, `it shall be the duty of the holder to`: the real subject.
_EXTRAPOSED_SUBJECT_RE = re.compile(r"[^,;:.]{0,40}?\s(?:for|of)\s+([^,;:.]{1,80}?)\s+to\s")
_LEADING_CONJUNCTION_RE = re.compile(r"(?:and|or|but)\s+")
# Words that dangle when a quote is cut before the clause they introduce.
_DANGLING_RE = re.compile(r"(?:[\s;,]|\b(?:and|or|but|provided|however)\b)+$")
_WORD_RE = re.compile(r"\S+")
_ALNUM_RE = re.compile(r"[^\W_]")
_NEXT_MARK_RE = re.compile(r"\s*(\S?)")


# --- public interface ------------------------------------------------------------------------


def deontic_clauses(text: str) -> list[DeonticClause]:
    """Every requirement clause in one paragraph of legal text, in order, non-overlapping."""
    if not any(word in text for word in _TRIGGER_WORDS):
        return []
    body = _body_start(text)
    matches = list(_TRIGGER_RE.finditer(text, body))
    if not matches or _is_heading(text, body):
        return []
    sentences = sentence_spans(text, body)
    starts = [s for s, _ in sentences]
    by_sentence: dict[int, list[_Reading]] = {}
    definitions: dict[int, bool] = {}  # by sentence: its triggers need not search it again
    previous = (-1, body)
    for match in matches:
        index = bisect_right(starts, match.start()) - 1
        sentence = sentences[index]
        floor = previous[1] if previous[0] == index else sentence[0]
        previous = (index, match.end())
        if index not in definitions:
            definitions[index] = _is_definition(text, sentence)
        if definitions[index]:
            continue
        reading = _reading(text, match, sentence, floor)
        if reading is None:
            continue
        earlier = by_sentence.setdefault(index, [])
        if reading.subject is None and earlier and _is_conjoined(text, sentence, reading):
            reading.subject = earlier[-1].subject
        earlier.append(reading)
    clauses: list[DeonticClause] = []
    floor = 0
    for index, readings in by_sentence.items():
        for clause in _sentence_clauses(text, sentences[index], readings, floor):
            clauses.append(clause)
            floor = clause.end
    return clauses


def is_requirement(sentence: str) -> bool:
    """Sentence-level decision: does the sentence bind an agent to a duty or a prohibition?

    Only high-confidence duties and prohibitions count: a named subject with an operative verb,
    or a passive that names who acts. Permissions, agentless passives (`shall be drawn up in
    accordance with Annex II`) and stative wording (`shall be valid`) stay in the register at
    lower confidence but do not make a sentence a requirement, because they describe a legal
    state or procedure rather than bind someone.
    """
    return any(
        c.modality in REQUIREMENT_MODALITIES and c.confidence == "high"
        for c in deontic_clauses(sentence)
    )


# --- paragraph structure ---------------------------------------------------------------------


def _body_start(text: str) -> int:
    """Offset after the leading bullet and list labels (`- `, `(a)`, `(1)(i)`, `1.`, `a.`) of
    the paragraph: a quote opens on its words."""
    return _LABELS_RE.match(text).end()  # type: ignore[union-attr]  # it may match nothing


def _is_heading(text: str, body: int) -> bool:
    """Markdown headings (`## What you must do`) state no requirement."""
    return text.startswith("#") and _word_count(text, body, len(text)) <= MAX_HEADING_WORDS


def _is_definition(text: str, sentence: tuple[int, int]) -> bool:
    """Definitions (`"X" means`, `As used in this part`) impose nothing, whatever their modals."""
    return bool(
        _DEFINITION_OPENING_RE.match(text, *sentence) or _DEFINED_TERM_RE.search(text, *sentence)
    )


# --- reading one trigger ---------------------------------------------------------------------


def _reading(
    text: str, match: re.Match[str], sentence: tuple[int, int], floor: int
) -> _Reading | None:
    """The modality and confidence of one trigger, or None when it makes no requirement.

    floor is where the subject may begin: the sentence start, or the end of an earlier trigger
    in the same sentence.
    """
    kind = match.lastgroup if match.group("modal") is None else "modal"
    start, end = match.span()
    relative = _RELATIVE_RE.search(text, max(sentence[0], start - 40), start) is not None
    if kind == "modal" and match.group("modal") in ITEM_MODALS:
        if not _OPENING_LABELS_RE.fullmatch(text, sentence[0], start) or _DAY_RE.match(text, end):
            return None  # "in May of each year", "May 1, 2020": a month, not a modal
        if "?" in text[start : sentence[1]]:
            return None  # "Must I use the travel card ...?" asks
    if kind in {"exempt", "right"} and _THAT_RE.search(text, sentence[0], start):
        return None  # "including a statement that the entity is not required to": content
    conditional = _CONDITION_RE.search(text, max(floor, start - 80), start) is not None
    if kind in _ADDRESSED and (conditional or "?" in text[start : sentence[1]]):
        return None  # "If you need to travel by air and rail, call ...": a condition, no duty
    if kind == "modal":
        verdict = _modal_verdict(text, match)
        if relative and match.group("modal") == "may":
            return None
    else:
        verdict = None if relative else _PHRASE_READINGS[kind]  # type: ignore[index]  # a phrase
    if verdict is None:
        return None
    modality, confidence = verdict
    subject = _bound_subject(text, sentence[0], floor, match)
    subject_text = text[subject[0] : subject[1]] if subject else ""
    if _CONSTRUCTION_SUBJECT_RE.match(subject_text) or _DEFINED_TERM_SUBJECT_RE.match(subject_text):
        return None
    if modality != "prohibition" and _NEGATIVE_SUBJECT_RE.match(subject_text):
        modality = "prohibition"
    if relative or conditional or _PROVISION_SUBJECT_RE.fullmatch(subject_text):
        confidence = "low"
    if kind == "should" and match.group("should_not") is not None:
        modality = "prohibition"
    if kind == "can" and match.group("cannot") is not None:
        modality = "prohibition"  # "You cannot receive overtime": no leave, a ban
    if kind == "need" and match.group("need_not") is not None:
        modality = "permission"  # "you do not need to notify PeopleOps": leave not to
    funded = kind == "funded"
    if funded and _FUNDED_BAN_RE.match(text, end):
        modality = "prohibition"  # "... is that the State involved will not expend the grant"
    return _Reading(start, end, modality, confidence, subject, funded)


# A list item may open on its modal, its subject in the lead-in ("A covered entity-- (1) May not
# intimidate ..."); written so anywhere else, "May" is a month.
ITEM_MODALS = frozenset({"Shall", "Must", "May"})
_OPENING_LABELS_RE = re.compile(r"\s*(?:(?:\(\w{1,6}\)|\w{1,3}\.)\s*)*")
_DAY_RE = re.compile(r"\s+\d")
_THAT_RE = re.compile(r"\b[Tt]hat\b")
_FUNDED_BAN_RE = re.compile(r"[^.;:]{0,60}?\bwill\s+not\b")
# A duty addressed to the reader is a policy's idiom: "You'll need to submit ...", "We have to
# make sure ...", "You should submit leave requests ... in advance" ("you should see a menu" or
# "receive a notification" says what happens, and is none). So is leave, or its absence: "You can
# request up to 240 hours of advanced sick leave", "you cannot receive overtime", "we can not
# compensate guests", "you do not need to notify PeopleOps" ("you can find the form on ...",
# "you can simply go to ..." say where or how, and are none; "reasons we can share" names).
_ADDRESSED = frozenset({"need", "should", "can"})
_PHRASE_READINGS = {
    "unlawful": ("prohibition", "high"),
    "critical": ("obligation", "medium"),
    "need": ("obligation", "medium"),
    "should": ("obligation", "medium"),
    "can": ("permission", "medium"),
    "mandatory": ("obligation", "medium"),
    "funded": ("obligation", "medium"),
    "exempt": ("permission", "medium"),
    "duty": ("obligation", "high"),
    "responsible": ("obligation", "medium"),
    "banned": ("prohibition", "high"),
    "allowed": ("permission", "high"),
    "right": ("permission", "high"),
}


def _is_conjoined(text: str, sentence: tuple[int, int], reading: _Reading) -> bool:
    """`X shall notify ... and shall publish`: the second trigger shares the first one's subject."""
    return _previous_word(text, sentence[0], reading.start) in _CONJUNCTIONS


def _previous_word(text: str, floor: int, position: int) -> str:
    """The word just before position within the sentence, lower-cased."""
    found = _PREVIOUS_WORD_RE.search(text, max(floor, position - 30), position)
    return found.group(1).lower() if found else ""


def _modal_verdict(text: str, match: re.Match[str]) -> tuple[str, str] | None:
    """Modality and confidence for shall/must/may, read from the verb they govern."""
    negated = match.group("negation") is not None
    (head, second, third), ends = _governed_words(text, match.end())
    if match.group("modal").lower() == "may":
        if head == "apply" and _APPLICATION_RE.match(text, ends[0]):
            return "prohibition" if negated else "permission", "high"
        return _may_verdict(negated, head, second, third)
    modality = "prohibition" if negated else "obligation"
    if head in _LEAD_IN_TOKENS or head == "":
        return modality, "high"
    if head == "be":
        verdict = _be_verdict(modality, second, third)
        if verdict == (modality, "medium") and _names_agent(text, second, ends[1]):
            return modality, "high"
        return verdict
    if head == "have":
        return _have_verdict(modality, second, third)
    if _is_non_operative_verb(head, second, third, negated):
        return None
    return modality, "low" if _is_stative(head, second, third) else "high"


def _may_verdict(negated: bool, head: str, second: str, third: str) -> tuple[str, str] | None:
    """`may` grants a permission (`may not` forbids) unless it only says what is possible."""
    modality = "prohibition" if negated else "permission"
    if head in _EPISTEMIC or head == "have" or _is_commencement(head, second, third):
        return None
    if head == "be":
        if not _is_participle(second) or second in _DEEMING or second in _AMENDING:
            return None
        return modality, "medium"
    return modality, "high"


def _be_verdict(modality: str, word: str, after: str) -> tuple[str, str] | None:
    """`shall be ...`: passive duties, stated duties, rights and bans, or non-operative deeming."""
    negated = modality == "prohibition"
    if word in _DEEMING or word in _AMENDING or word in _IN_FORCE or word == "without":
        return None
    if (word, after) == ("known", "as") or (word in _DEEMING_IF_AS and after in _AS_WORDS):
        return None
    if word == "the" and after in _DUTY_NOUNS:
        return "obligation", "high"
    if word in _DUTY_ADJECTIVES and after == "to":
        return None if negated else ("obligation", "high")
    if word == "entitled" or (word in _LEAVE_WORDS and after == "to"):
        return "prohibition" if negated else "permission", "medium"
    if word in {"prohibited", "forbidden", "unlawful"}:
        return None if negated else ("prohibition", "high")
    if word == "responsible" or _is_participle(word):
        return modality, "medium"
    return modality, "low"


def _names_agent(text: str, participle: str, end: int) -> bool:
    """`shall be granted by the competent authority` names who must act; `increased by` does not."""
    return participle not in _NON_AGENT_PARTICIPLES and _BY_AGENT_RE.match(text, end) is not None


def _have_verdict(modality: str, word: str, after: str) -> tuple[str, str] | None:
    """`shall have ...`: a conferred right or power, an effect rule, or a stative description."""
    if word == "effect":
        return None
    if word in {"the", "a", "an"} and after in _POWERS:
        return "permission", "medium"
    if word == "regard" or (word, after) == ("in", "place") or (word == "at" and after in _OWNERS):
        return modality, "high"
    if after.startswith("responsibilit") or word.startswith("responsibilit"):
        return modality, "medium"
    return modality, "low"


def _is_stative(head: str, second: str, third: str) -> bool:
    """Verbs that describe a state or an event rather than an act (`shall include`, `shall
    take place`, `The period shall begin on`); `shall include in its report` is an act."""
    return (
        (head in _STATIVE and not (head == "include" and second == "in"))
        or (head == "take" and (second == "place" or (second, third) == ("the", "form")))
        or (head in _INCEPTIVE and second != "to" and not second.endswith("ing"))
    )


def _is_commencement(head: str, second: str, third: str) -> bool:
    """`enter into force`, `come into effect`, `expire`, `cease`: when the law runs, not a duty."""
    return head in _TERMINATION or (
        head in {"enter", "come"} and second == "into" and third in _INTO_FORCE
    )


def _is_non_operative_verb(head: str, second: str, third: str, negated: bool) -> bool:
    """Commencement, scope, meaning and construction verbs that impose no duty."""
    if _is_commencement(head, second, third) or head in {"mean", "means"}:
        return True
    if head in {"apply", "applies"}:
        return second in _INTRANSITIVE_APPLY_NEXT or second == ""
    if head == "take" and second == "effect":
        return True
    if head in {"extend", "extends"} and second == "to":
        return True
    if head == "continue" and second == "to" and third in {"apply", "have"}:
        return True
    if head == "remain" and second in {"in", "applicable", "valid", "unchanged"}:
        return True
    return negated and (head in _CONSTRUCTION or (head == "be" and second == "construed"))


def _governed_words(text: str, position: int) -> tuple[list[str], list[int]]:
    """The first three words of the governed verb phrase and where each ends.

    Adverbs and one aside are skipped: `shall, within 30 days, notify` gives `notify`, and
    `must, in accordance with § 164.306:` gives `:` because the verb comes in the list that
    follows. Adverbs after `be` are skipped too, so `shall at once be communicated` reads as
    `be communicated`. Missing words are empty strings.
    """
    aside = _ASIDE_RE.match(text, position)
    if aside:
        position = aside.end()
    words: list[str] = []
    ends: list[int] = []
    while len(words) < 3:
        if not words or words[-1] in {"be", "have"}:
            position = _ADVERBIAL_RE.match(text, position).end()  # type: ignore[union-attr]
        found = _NEXT_WORD_RE.match(text, position)
        if not found:
            break
        words.append(found.group(1).lower())
        position = found.end()
        ends.append(position)
    missing = 3 - len(words)
    return words + [""] * missing, ends + [position] * missing


def _is_participle(word: str) -> bool:
    """Rough past-participle test, enough to tell `be disclosed` from `be necessary`."""
    if word in _IRREGULAR_PARTICIPLES:
        return True
    return word.endswith(("ed", "en", "wn", "ne")) and word not in _NOT_PARTICIPLES


# --- subjects ----------------------------------------------------------------------------------


def _subject_span(
    text: str, sentence_start: int, floor: int, trigger: int
) -> tuple[int, int] | None:
    """The noun phrase the trigger binds, e.g. `A covered entity` or `the Secretary`.

    It is the text between the last clause boundary and the trigger, with a comma-delimited
    aside (`The Secretary, after consultation, shall`) skipped and any relative clause or long
    prepositional tail cut off. After an earlier trigger (`X may do A and Y shall do B`) only the
    words after the last conjunction can be the subject.
    """
    low = floor if trigger - floor <= 300 else text.find(" ", trigger - 300) + 1
    end = len(text[low:trigger].rstrip()) + low
    pronoun = text.rfind(" ", low, end) + 1
    if text[max(pronoun, low) : end] in _PRONOUNS:
        return max(pronoun, low), end
    if text[end - 1 : end] == ",":
        opening = text.rfind(",", low, end - 1)
        end = opening if opening >= 0 else end - 1
    begin = low
    for cut in _SUBJECT_CUT_RE.finditer(text, low, end):
        begin = cut.end()
    if begin == floor > sentence_start:
        conjunctions = list(_CONJUNCTION_RE.finditer(text, begin, end))
        if not conjunctions:
            return None
        begin = conjunctions[-1].end()
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
    if (
        not any(ch.isalpha() for ch in phrase)
        or _DANGLING_CONJUNCTION_RE.search(phrase)
        or len(phrase.split()) > MAX_SUBJECT_WORDS
        or _PREPOSITION_START_RE.match(phrase.lstrip())
    ):
        return None
    return begin + len(phrase) - len(phrase.lstrip()), begin + len(phrase.rstrip())


def _bound_subject(
    text: str, sentence_start: int, floor: int, match: re.Match[str]
) -> tuple[int, int] | None:
    """The subject the trigger binds, looking through `If ...` and `It is unlawful for X to`."""
    if match.lastgroup == "unlawful":
        return _extraposed_subject(text, match.end())
    if match.lastgroup in {"critical", "funded"}:
        return None  # `It is critical that you notify ...`: the duty is stated, not bound to `It`
    if match.lastgroup in _ADDRESSED:
        return None  # `If you do not hear back, you can phone ...`: the reader, not the condition
    subject = _subject_span(text, sentence_start, floor, match.start())
    if subject is not None and _SUBORDINATOR_RE.match(text, *subject):
        subject = _after_subordinator(text, subject)
    if subject is not None and text[subject[0] : subject[1]] in {"it", "It"}:
        subject = _extraposed_subject(text, match.end()) or subject
    return subject


def _after_subordinator(text: str, subject: tuple[int, int]) -> tuple[int, int] | None:
    """`If you are required to ...`: the subject is `you`, inside a condition."""
    start = _SUBORDINATOR_RE.match(text, *subject).end()  # type: ignore[union-attr]
    return (start, subject[1]) if start < subject[1] else None


def _extraposed_subject(text: str, end: int) -> tuple[int, int] | None:
    """`It is unlawful for any person to ...` binds `any person`, not `It`."""
    found = _EXTRAPOSED_SUBJECT_RE.match(text, end)
    return found.span(1) if found else None


# --- quotes ------------------------------------------------------------------------------------


def _sentence_clauses(
    text: str, sentence: tuple[int, int], readings: list[_Reading], floor: int
) -> list[DeonticClause]:
    """One clause per group of triggers, 10-40 words where it fits, widened to whole phrases; a
    group the previous, widened quote already holds adds no clause of its own, and one that
    could only start where that quote ends, inside a phrase, joins it: the two are one quote."""
    cuts: list[tuple[int, int]] = []
    # Clause boundaries matter only in a sentence of several triggers or of more than 40 words:
    # one trigger's shorter sentence is quoted whole, and finding them is a regex scan.
    if len(readings) > 1 or _word_count(text, *sentence) > MAX_QUOTE_WORDS:
        cuts = [(m.start(), m.end()) for m in _CLAUSE_CUT_RE.finditer(text, *sentence)]
    groups = _trigger_groups(text, sentence, readings, cuts)
    clauses: list[DeonticClause] = []
    primaries: list[_Reading] = []
    for (region_start, region_end), members in groups:
        if not _ALNUM_RE.search(text, max(region_start, floor), region_end):
            continue  # the previous quote, kept whole, already holds this clause
        primary = max(members, key=lambda r: (r.rank, -r.start))
        start, end = _quote_span(text, (max(region_start, floor), region_end), primary, cuts)
        start, end = _extended_backwards(text, start, end, floor)
        start, end = whole_span(text, start, end, max(floor, text.rfind("\n", 0, start) + 1))
        if clauses and starts_inside(text, start):
            primary = max(primaries.pop(), primary, key=lambda r: (r.rank, -r.start))
            start = clauses.pop().start
        clauses.append(_clause(text, start, end, primary))
        primaries.append(primary)
        floor = end
    return clauses


def _trigger_groups(
    text: str,
    sentence: tuple[int, int],
    readings: list[_Reading],
    cuts: list[tuple[int, int]],
) -> list[tuple[tuple[int, int], list[_Reading]]]:
    """Split the sentence into regions, one per trigger clause, merging any that fit together.

    The first region starts with the sentence; each later one at the clause segment holding its
    trigger's subject (never before the previous trigger) and runs to the start of the next.
    Neighbours merge while the merged region stays within 40 words or either is too short to
    quote alone.
    """
    cut_ends = [e for _, e in cuts]
    groups: list[tuple[tuple[int, int], list[_Reading]]] = []
    for reading in readings:
        begin = _segment_start(cut_ends, reading.anchor, sentence[0]) if groups else sentence[0]
        if groups and begin < groups[-1][1][-1].end:
            begin = reading.anchor
        if groups and begin < groups[-1][1][-1].end:
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


def _segment_start(cut_ends: list[int], position: int, sentence_start: int) -> int:
    """Start of the clause segment holding position: the last cut at or before it."""
    index = bisect_right(cut_ends, position) - 1
    return cut_ends[index] if index >= 0 else sentence_start


def _quote_span(
    text: str, region: tuple[int, int], reading: _Reading, cuts: list[tuple[int, int]]
) -> tuple[int, int]:
    """The quote inside region: the whole region if it fits, else the trigger's clause.

    The quote starts at the last clause boundary before the subject (or at the subject, or at
    the trigger, whichever leaves room) and ends at the farthest boundary that keeps it within
    40 words; when that would leave a fragment it ends at the 40th word instead. The caller
    then widens the span to phrase boundaries (phrases.whole_span).
    """
    start, end = region
    if _word_count(text, start, end) <= MAX_QUOTE_WORDS:
        return _stripped(text, start, end)
    anchor = max(start, reading.anchor)
    start = max([start] + [e for _, e in cuts if start <= e <= anchor])
    room = MAX_QUOTE_WORDS - MIN_QUOTE_WORDS
    if _word_count(text, start, reading.end) > room:
        start = anchor
    if _word_count(text, start, reading.end) > room:
        start = reading.start
    ends = [s for s, _ in cuts if reading.end < s < end] + [end]
    # The word count only grows with the end, so the ends that fit come first: a binary search
    # finds how many, counting the words of a few of them instead of all.
    fitting = bisect_right(ends, MAX_QUOTE_WORDS, key=lambda e: _word_count(text, start, e))
    if fitting and _word_count(text, start, ends[fitting - 1]) >= MIN_QUOTE_WORDS:
        return _stripped(text, start, ends[fitting - 1])
    *_, last = islice(_WORD_RE.finditer(text, start, end), MAX_QUOTE_WORDS)  # 40th (or last)
    return _stripped(text, start, last.end())


def _extended_backwards(text: str, start: int, end: int, floor: int) -> tuple[int, int]:
    """Extend a quote under 10 words back to the start of an earlier sentence of the paragraph
    (its heading, say), never to the middle of one: a quote must not open mid-sentence."""
    if _word_count(text, start, end) >= MIN_QUOTE_WORDS:
        return start, end
    for sentence_start, _ in reversed(sentence_spans(text, floor, start)):
        words = _word_count(text, sentence_start, end)
        if words > MAX_QUOTE_WORDS:
            break
        if words >= MIN_QUOTE_WORDS:
            return sentence_start, end
    return start, end


def _clause(text: str, start: int, end: int, reading: _Reading) -> DeonticClause:
    """The public clause for a chosen quote and trigger reading."""
    confidence = reading.graded
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
        opens_list=_opens_list(text, end, reading.funded),
    )


def _opens_list(text: str, end: int, funded: bool = False) -> bool:
    """True when the quote ends a lead-in: `shall:`, `must—`, `the following:` before a list.

    A paragraph that stops without punctuation (`The Secretary shall adopt standards that`) is a
    lead-in too: the list items follow as their own paragraphs; a grant's condition may stop on a
    citation (`... is that, in carrying out subsection (a)(1)`).
    """
    last = text[end - 1 : end]
    if last in _LEAD_IN_TOKENS:
        return True
    after = _NEXT_MARK_RE.match(text, end).group(1)  # type: ignore[union-attr]
    ends_open = last.isalnum() or (funded and last == ")")
    return after in _LEAD_IN_TOKENS or (after == "" and ends_open)


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """Span without outer white space and without a dangling `;`, `,`, `and`, `provided` ..."""
    while (
        _may_dangle(text, end)
        and (dangling := _DANGLING_RE.search(text, max(start, end - 40), end))
        and dangling.start() > start
    ):
        end = dangling.start()
    while start < end and text[start].isspace():
        start += 1
    leading = _LEADING_CONJUNCTION_RE.match(text, start, end)
    return (leading.end() if leading else start), end


def _may_dangle(text: str, end: int) -> bool:
    """Whether text[:end] can end with a _DANGLING_RE match: only after white space, `;`, `,`
    or the last letter of `and`, `or`, `but`, `provided` or `however`. Most quotes end
    otherwise, and are spared the regex search, which tries each of the last 40 positions."""
    last = text[end - 1 : end]
    return last.isspace() or last in {";", ",", "d", "r", "t"}


def _word_count(text: str, start: int, end: int) -> int:
    """Number of white-space separated words in text[start:end], counted up to 41: every caller
    compares it with a budget of at most MAX_QUOTE_WORDS, and a long sentence need not be split
    into all its words for that (`maxsplit` leaves the rest as one piece)."""
    return len(text[start:end].split(None, MAX_QUOTE_WORDS))


__all__ = [
    "EXTRACTOR_NAME",
    "EXTRACTOR_VERSION",
    "ITEM_MODALS",
    "REQUIREMENT_MODALITIES",
    "DeonticClause",
    "deontic_clauses",
    "is_requirement",
]


def trigger_phrase(text: str) -> str | None:
    """The first deontic trigger in a text ("shall not", "is required to"), if any."""
    match = _TRIGGER_RE.search(text)
    return match.group(0) if match else None
