"""Who must, may or must not do what: the deontic readings of a claim or a quote.

groundwork.extract.deontic finds requirement clauses in statutes, which say `shall`, `must`, `may
not`. An answer says the same in plainer words: "has to", "needs to", "can", "cannot", "don't have
to", "is entitled to". So a reading here knows both vocabularies and four modalities: the three of
groundwork.extract.deontic (obligation, prohibition, permission) and the exemption, "is not required
to", which is neither a permission nor a duty. Per the labelling convention of claims.jsonl,
"should" and "may need to" are hedged obligations, not permissions.

Each reading keeps the modality, its trigger, the subject (the noun phrase bound) and the
action (the content terms of the clause the trigger governs), so that a claim's reading can be
compared with the quote's reading of the same action. A quote that opens with a bare verb
("Retain the accounting ...", a list item under "shall:") is an obligation with no subject.

A concession states a rule as much as the main clause does: "Use of the model form constitutes
compliance, although use of the model form is not required" exempts. (A "while" clause is
left out with the conditions: "while" is as often a time as a concession.)

A plain negation, "This part does not apply to ...", "State law is not superseded", is a
denial: the negative of an assertion, read so that a claim stating the act plainly conflicts.
A "does not" inside a relative clause or a condition ("an employee who does not return") is
no reading.

Some wordings put the party inside the modal phrase: "It is mandatory for the agency to keep",
"There is no requirement for X to", "X's duty is to", "Nothing in this part shall be construed
to authorize X to". `plain_modals` rewrites them to the plain form ("X must", "X need not", "X
may not") before a verdict reads them; `readings` itself keeps the text's positions.

Plain English also states a rule of the act itself: "Keeping a log is optional", "Disclosure is
prohibited", "A written request is not required". Such a predicative reading binds no party by
its subject (the subject is the act, and its first term the verb); who acts, if said, is its
"by" or "for" phrase, kept as `agent`, as it is for a passive ("shall be appointed by the
court").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from groundwork.claims.lexicon import content_terms, is_adverb, normalised, term
from groundwork.claims.roles import TELLING, recipient
from groundwork.text.sentences import sentence_spans
from groundwork.wording.grammar import (
    ABSOLUTE_NEGATION,
    BAN_PARTICIPLES,
    DUTY_PARTICIPLES,
    EPISTEMIC_VERBS,
    LEAVE_PARTICIPLES,
    NOT_A_NEGATION,
    PARENTHETICAL_ASIDE,
    PARTY_DETERMINERS,
    PREPOSITIONS,
    RELATIVE_WORDS,
    SEGMENT_PRONOUNS,
    either,
)
from groundwork.wording.lists import words

OBLIGATION, PROHIBITION, PERMISSION, EXEMPTION, ASSERTION, DENIAL = (
    "obligation",
    "prohibition",
    "permission",
    "exemption",
    "assertion",  # a plain statement of what a party does: "The Secretary decides"
    "denial",  # ... or does not: "This part does not supersede", "State law is not preempted"
)
# How each modality is named in an issue: "modality changed: may vs must".
MODAL_WORDS = {
    OBLIGATION: "must",
    PROHIBITION: "must not",
    PERMISSION: "may",
    EXEMPTION: "need not",
    ASSERTION: "does",
    DENIAL: "does not",
}

_BE = r"(?:is|are|was|were|be|will\s+be)"
_BE_NOT = r"(?:is|are|was|were)\s+not(?=\s+\w+(?:ed|en)\b)"  # "is not superseded": denied
_ADVERB = r"(?:\s+\w+ly)?"
_ADVERBS = r"(?:\s+(?:\w+ly|still|also|always))*"  # "is probably still free to"
# Order matters: the longer, negated and hedged forms come before the bare modals.
# "is required", "is optional", "is prohibited" with no "to"/"from" after: the subject names the
# act ("Keeping a log is optional"), not the party bound.
_NO_COMPLEMENT = r"(?!\s+(?:to|from)\b)"
# Order matters: the longer, negated and hedged forms come before the bare modals.
_TRIGGERS = (
    (
        EXEMPTION,
        rf"{_BE}\s+not{_ADVERB}\s+(?:{either((*DUTY_PARTICIPLES, 'bound', 'expected'))})\s+to"
        rf"|need\s+not|(?:does|do|did)\s+not{_ADVERB}\s+(?:need(?:\s+to)?|have\s+to)"
        rf"|(?:doesn't|don't|didn't){_ADVERB}\s+(?:need(?:\s+to)?|have\s+to)"
        rf"|{_BE}{_ADVERB}\s+(?:exempt(?:ed)?|excused|relieved|released)\s+from"
        rf"|{_BE}\s+(?:under\s+no|not\s+under\s+any)\s+(?:obligation|duty)\s+to"
        rf"|{_BE}\s+relieved\s+of\s+(?:the|any)\s+(?:obligation|duty|requirement)\s+to"
        r"|(?:has|have)\s+no\s+(?:obligation|duty)\s+to|never\s+(?:has|have|needs?)\s+to"
        rf"|{_BE}\s+not{_ADVERB}\s+responsible\s+for"
        rf"|{_BE}\s+(?:optional|voluntary|unnecessary|not\s+(?:mandatory|obligatory|compulsory))"
        rf"|{_BE}\s+not{_ADVERB}\s+(?:required|necessary|needed){_NO_COMPLEMENT}"
        rf"|{_BE}\s+not\s+an?\s+(?:prerequisite|precondition|requirement|condition)",
    ),
    (
        PROHIBITION,
        r"(?:shall|must|may|will|should|can|could)\s+(?:(?:not|never)\b"
        rf"(?!\s+(?:{either(NOT_A_NEGATION)})\b)|{ABSOLUTE_NEGATION}|at\s+no\s+time)"
        r"|cannot|can\s+not|can't|could\s+not|couldn't|mustn't|shan't|won't"
        rf"|{_BE}{_ADVERB}\s+(?:"
        + either((*BAN_PARTICIPLES, "banned", "barred", "precluded", "disallowed"))
        + r")\b"
        rf"(?:\s+(?:from|to))?|{_BE}{_ADVERB}\s+restricted\s+from"
        rf"|{_BE}\s+(?:not|never){_ADVERB}\s+(?:"
        + either((*LEAVE_PARTICIPLES, "entitled", "free", "supposed"))
        + r")\s+to"
        rf"|{_BE}\s+not{_ADVERB}\s+(?:{either(LEAVE_PARTICIPLES)}){_NO_COMPLEMENT}"
        r"|(?:has|have)\s+no\s+(?:right|authority|power)\s+to"
        r"|lacks?\s+(?:the\s+|any\s+)?(?:right|authority|power)\s+to"
        r"|(?:does|do|did)\s+not\s+have\s+(?:the|any|a)\s+(?:right|authority|power)\s+to"
        r"|(?:shall|must|should)\s+(?:refrain\s+from|avoid)|(?:is|are)\s+not\s+to"
        r"|it\s+is\s+unlawful",
    ),
    (
        OBLIGATION,
        r"(?:may|might|will|would)(?:\s+\w+ly)?\s+need\s+to|should|ought\s+to"
        rf"|shall|must|{_BE}{_ADVERB}\s+(?:"
        + either(
            (
                *DUTY_PARTICIPLES,
                "expected",
                "supposed",
                "compelled",
                "bound",
                "directed",
                "instructed",
            )
        )
        + r")\s+to(?!\s+(?:the|a|an|this|that|its|their|any)\b)"
        rf"|{_BE}\s+under\s+(?:an?|the)\s+(?:obligation|duty)\s+to|{_BE}\s+charged\s+with"
        r"|(?:bears?|has|have|retains?)\s+(?:the\s+)?(?:responsibility|duty)\s+(?:for|of)"
        rf"|{_BE}{_ADVERB}\s+(?:required|mandatory|compulsory|obligatory){_NO_COMPLEMENT}"
        r"|(?:has|have|had)(?:\s+\w+ly)?\s+(?:a\s+duty\s+|an\s+obligation\s+)?to\b(?!\s+do\s+with)"
        rf"|needs?\s+to|{_BE}{_ADVERB}\s+responsible\s+for"
        r"|(?:is|are)\s+to(?=\s+[a-z])(?!\s+(?:the|a|an|this|that|its|their|his|her|such|any"
        r"|each|all|be\s+construed)\b)",
    ),
    (
        PERMISSION,
        r"(?:may|can|could)\s+(?:choose|elect|decide|opt)\s+(?:whether\s+)?(?:or\s+not\s+)?to"
        r"|(?:decides|determines|chooses|elects)\s+whether\s+(?:or\s+not\s+)?to"
        r"|may|can|could"
        rf"|{_BE}\s+not{_ADVERB}\s+(?:prohibited|prevented|precluded|barred|forbidden)\s+from"
        rf"|(?:{_BE}|remains?){_ADVERBS}\s+(?:"
        + either(
            (
                *LEAVE_PARTICIPLES,
                "entitled",
                "free",
                "able",
                "eligible",
                "empowered",
                r"at\s+liberty",
            )
        )
        + r")\s+to"
        rf"|{_BE}{_ADVERB}\s+(?:{either(LEAVE_PARTICIPLES)}){_NO_COMPLEMENT}"
        rf"|{_BE}\s+(?:at\s+(?:the\s+)?(?:[\w-]+\s+){{0,3}}?\S+\s+discretion|discretionary)"
        r"|(?:has|have|retains?)\s+(?:the\s+)?(?:right|option|discretion|power|authority)\s+to"
        r"|(?:has|have)\s+(?:the\s+|full\s+)?(?:discretion|option|choice)(?:\s+to\s+decide)?"
        r"\s+(?:whether\s+)?to|(?:has|have)\s+the\s+(?:option|choice)\s+of",
    ),
    (
        DENIAL,  # last: "does not need to" and "is not required to" are exemptions
        rf"(?:does|do|did)\s+not|(?:doesn't|don't|didn't)|{_BE_NOT}|never(?=\s+[a-z]+s\b)",
    ),
)
_TRIGGER_RE = re.compile(  # the lookahead (the triggers' first letters) spares most positions
    r"\b(?=[iawbndsmchorleIAWBNDSMCHORLE])(?:"
    + "|".join(f"(?P<{modality}>{pattern})" for modality, pattern in _TRIGGERS)
    + r")\b",
    re.IGNORECASE,
)
# Epistemic "may": "whether the information may be included", "that may result".
_EPISTEMIC = re.compile(
    r"\b(?:whether|that|which|who|what|as)\s+(?:\S+\s+){0,6}$|\bit\s+$", re.IGNORECASE
)
_EPISTEMIC_VERBS = EPISTEMIC_VERBS | {"be"}  # "be" only after "whether", "that" ... (_EPISTEMIC)
_PASSIVE_BY = re.compile(r"\s+be\s+\w+(?:ed|en)\s+by\s", re.IGNORECASE)
_BOUNDARY = re.compile(r"[,;:()]|—|--")
# An aside is no clause: "(except employees of the office)", not "(a)"; ", as defined in
# section 1.03 of this chapter,".
_ASIDE = re.compile(PARENTHETICAL_ASIDE, re.IGNORECASE)
# After an earlier trigger a conjunction opens the next clause ("may keep a log and, ...,
# must provide"); before the first one it joins the subject ("A covered entity or business
# associate must").
_CONJUNCTION = re.compile(r"\b(?:and|or|but|then|so)\s", re.IGNORECASE)
# A trigger after a subordinator is part of a condition, not a rule: "refuse access if the
# person cannot pay".
_SUBORDINATE = re.compile(
    r"\b(?:if|when|whenever|unless|whether|once|because|while|until|where)\b",
    re.IGNORECASE,
)
# A claim's subject keeps its "of", "on", "at" and "to" phrases ("the Secretary of HHS"); any
# other preposition or a relative word ends it.
_SUBJECT_TAIL = re.compile(
    rf"\s(?:{either(RELATIVE_WORDS)}|to\s+which|to\s+whom|in\s+which"
    rf"|{either(PREPOSITIONS - {'of', 'on', 'at', 'to'})})\b.*$",
    re.IGNORECASE,
)
_LEADING = re.compile(
    r"^(?:(?:if|when|whenever|once|where|although|because|since|and|or|but|then|so|also|thus"
    r"|however|that|whether|except|provided(?:\s+that)?|in\s+which\s+case)\b\s*)+",
    re.IGNORECASE,
)
# A sentence's opening condition, skipped to find its main clause: "If the statement is made
# orally, document the statement".
_OPENING_CONDITION = re.compile(
    r"^(?:if|when|whenever|where|unless|once|upon|after|before|within|for|in)\b[^,;:]*,\s*",
    re.IGNORECASE,
)
_PRONOUNS = SEGMENT_PRONOUNS
_IMPERATIVE_BLOCKERS = words("imperative_blockers")
# A first word followed by "of" names an act, it gives no command: "Use of the model form
# constitutes compliance", "Submission of a claim"; but "Dispose of the media" does.
_NOUN_OF = re.compile(r"^(?!dispose\b)[A-Za-z]+\s+of\b", re.IGNORECASE)
_FINITE = re.compile(
    r"^\S+\s+(?:is|are|was|were|has|have|shall|must|may|will|can|does|do|means|includes)\b",
    re.IGNORECASE,
)
_MAX_SUBJECT_WORDS = 12
_SHORT_SUBJECT = 4  # words before a first trigger that read as its subject, not a command
_PREPOSITIONS = PREPOSITIONS | {"into"}
_VERB_WORDS = re.compile(r"[A-Za-z]+")
_AUXILIARIES = frozenset({"be", "been", "being", "not", "never", "to", "have", "also", "only"})
_HEDGE = re.compile(
    r"\b(?:it\s+(?:appears|seems)(?:\s+that)?|as\s+far\s+as\s+i\s+can\s+tell|i\s+(?:believe|think))\b",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"(that|which|who|whom|whose|where)\b", re.IGNORECASE)
_CLAUSE_OPENER = re.compile(rf"\b(?:that|which|who|whom|whose)\b|{_SUBORDINATE.pattern}", re.I)
_LIMIT = re.compile(r"(?:\s+\w+ly)?\s+(?:exceed|be\s+more\s+than)\b", re.IGNORECASE)
# "X is to do": a duty, unless X names an aim ("The purpose of this part is to ensure").
_IS_TO = re.compile(r"(?:is|are)\s+to", re.IGNORECASE)
_STATED_AIM = re.compile(
    r"\b(?:purpose|goal|aim|intent|intention|objective|function|role|step|effect|result|idea"
    r"|policy)s?(?:\s+(?:of|for)\s+[^,;:]*)?$",
    re.IGNORECASE,
)
# A predicative trigger names no party: the subject is the act ("Disclosure is prohibited").
_PREDICATIVE = re.compile(
    r"(?:optional|voluntary|unnecessary|mandatory|obligatory|compulsory|required|necessary"
    r"|needed|prohibited|forbidden|banned|barred|precluded|permitted|allowed|authori[sz]ed"
    r"|discretion|discretionary|prerequisite|precondition|requirement|condition)$",
    re.IGNORECASE,
)
# A rule with a "no" subject: "No person shall disclose" forbids; "No consent is required"
# (predicative) and "No person needs to" (a need, not a command) exempt.
_NEGATED = {
    False: {OBLIGATION: PROHIBITION, PERMISSION: PROHIBITION},
    True: {OBLIGATION: EXEMPTION, PERMISSION: PROHIBITION},
}
_NEED = re.compile(r"\bneeds?\b|\b(?:required|obligated|obliged)\s+to|\bha(?:s|ve)\s+to", re.I)
_NO_SUBJECT = re.compile(r"\s*(?:no\s+one|nobody|none)\b", re.IGNORECASE)
_BY_AGENT = re.compile(rf"\bby\s+(?P<party>(?:{either(PARTY_DETERMINERS)})\s+[^,;:.]+)", re.I)
_AGENT_OR_BENEFICIARY = re.compile(
    rf"\b(?:by|for)\s+(?P<party>(?:{either(PARTY_DETERMINERS)})\s+[^,;:.]+)", re.I
)
# Where a "by" phrase's party ends: at a preposition, a relative word, an infinitive.
_AGENT_END = re.compile(
    r"\s(?:to|of|for|in|on|at|with|within|under|upon|after|before|from|that|which|who|when"
    r"|if|unless|and\s+(?:to|shall|must|may)|\w+ing)\b",
    re.I,
)
_FINITE_VERB = re.compile(r"^[a-z]+(?:s|ed)$")  # "decides", "determined": not "give", "notice"
# A plural noun or pronoun just before a bare verb makes it finite: "Employees earn leave".
_PLURAL_SUBJECT = re.compile(
    r"(?:\b(?!(?:this|his|its|is|was|has|does|thus|always|perhaps|unless|as)\s)[a-z]+[a-rt-z]s"
    r"|\b(?:they|we|you|people|staff|personnel))\s+$",
    re.IGNORECASE,
)
_BE_BEFORE = re.compile(r"\s(?:is|are|was|were|be|been)(?:\s+\w+ly)?\s*$", re.IGNORECASE)
_PASSIVE = re.compile(r"(?:\s+\w+ly)?\s+(?:be|been|being)\b", re.IGNORECASE)
_DENIED_PASSIVE = re.compile(r"(?:is|are|was|were)\s+not", re.IGNORECASE)


# Modals said around their party ("It is mandatory for the agency to keep", "Nothing in this
# part shall be construed to authorize the Secretary to fine"), rewritten to the plain form
# whose subject the triggers read ("the agency must keep", "the Secretary may not fine"). A
# text that "does not authorize" or "shall not be construed to authorize" an act gives no
# permission for it; one that does not require it exempts; one that does not prohibit it
# permits. What a text "authorizes", "requires" or "prohibits" it permits, obliges, forbids.
_PARTY = (
    rf"(?P<party>(?:{either((*PARTY_DETERMINERS, 'every', 'their'))})\s+[\w' -]+?|[A-Z][\w'-]*)"
)
_DISCLAIMER = (
    r"\b(?:nothing(?:\s+(?:in|under)\s+[^,;.]{1,80}?)?\s+(?:(?:shall|may|will|should)\s+)?"
    r"(?:be\s+(?:construed|interpreted|deemed|read)\s+(?:to|as)\s+)?"
    r"|(?:this|the)\s+(?:section|part|subpart|subsection|paragraph|chapter|title|act|rule"
    r"|regulation)\s+(?:does|shall)\s+not\s+(?:be\s+construed\s+(?:to|as)\s+)?)"
)
# ... and what the text itself grants: "This section requires X to", "The rule allows X to".
_ENACTMENT = (
    r"\b(?:this|the)\s+(?:section|part|subpart|subsection|paragraph|chapter|title|act|rule"
    r"|regulation|law|statute)\s+(?:\w+ly\s+)?"
)
_PERIPHRASES = tuple(
    (re.compile(pattern, re.IGNORECASE), plain)
    for pattern, plain in (
        (
            rf"\bit\s+is\s+(?:mandatory|required|obligatory|compulsory|necessary)\s+for\s+{_PARTY}"
            r"\s+to\s",
            r"\g<party> must ",
        ),
        (
            rf"\bit\s+is\s+(?:permissible|permitted|allowed|acceptable|lawful)\s+for\s+{_PARTY}"
            r"\s+to\s",
            r"\g<party> may ",
        ),
        (
            rf"\bit\s+is\s+(?:prohibited|forbidden|unlawful|illegal|impermissible)\s+for\s+{_PARTY}"
            r"\s+to\s",
            r"\g<party> must not ",
        ),
        (
            r"\bit\s+is\s+(?:optional|voluntary|unnecessary|not\s+(?:mandatory|required|necessary"
            rf"|obligatory))\s+for\s+{_PARTY}\s+to\s",
            r"\g<party> need not ",
        ),
        (
            r"\bthere\s+is\s+no\s+(?:requirement|obligation|duty|need)\s+(?:for|on)\s+"
            rf"{_PARTY}\s+to\s",
            r"\g<party> need not ",
        ),
        (
            rf"\bthere\s+is\s+no\s+requirement\s+that\s+{_PARTY}\s+(?=[a-z]+\s)",
            r"\g<party> need not ",
        ),
        (r"\bthere\s+is\s+no\s+(?:requirement|obligation|duty|need)\s+to\s", "need not "),
        (  # "has the option, but not the obligation, to cut": a permission
            r"\b(?:has|have)\s+the\s+(?:option|right|discretion|choice)\s*,?\s+but\s+not\s+the"
            r"\s+(?:obligation|duty|requirement)\s*,?\s+to\s",
            "may ",
        ),
        (  # "may, but need not, keep": a permission
            r"\bmay\s*,?\s+but\s+(?:need\s+not|(?:is|are)\s+not\s+(?:required|obligated|obliged)"
            r"\s+to)\s*,?\s",
            "may ",
        ),
        (
            r"\b(?P<word>permitted|allowed|authori[sz]ed)\s*,?\s+but\s+not\s+(?:required"
            r"|obligated|obliged)\s*,?\s+to\s",
            r"\g<word> to ",
        ),
        (
            rf"\bit\s+is\s+(?:up\s+to|for)\s+{_PARTY}\s+(?:to\s+decide\s+)?whether\s+to\s",
            r"\g<party> may ",
        ),
        (rf"\b{_PARTY}'s\s+(?:obligation|duty|responsibility)\s+is\s+to\s", r"\g<party> must "),
        (
            rf"\bit\s+is\s+{_PARTY}'s\s+(?:obligation|duty|responsibility|job)\s+to\s",
            r"\g<party> must ",
        ),
        (  # "Whether to keep a log is up to the agency": the agency may keep one
            r"\bwhether\s+(?:or\s+not\s+)?to\s+(?P<act>[^,;.]+?)\s+(?:is|are)(?:\s*,[^,]{1,30},)?"
            r"\s+(?:entirely\s+)?(?:left\s+(?:up\s+)?to|up\s+to|for)\s+"
            rf"{_PARTY}(?:\s+to\s+decide)?(?=\s*(?:[.;]|$))",
            r"\g<party> may \g<act>",
        ),
        (  # "Whether to keep a log is the agency's decision"
            r"\bwhether\s+(?:or\s+not\s+)?to\s+(?P<act>[^,;.]+?)\s+(?:is|are)(?:\s*,[^,]{1,30},)?"
            rf"\s+(?:(?:left\s+)?(?:to|at)\s+)?{_PARTY}'s\s+(?:discretion|decision|choice|call)"
            r"(?=\s*(?:[.;]|$))",
            r"\g<party> may \g<act>",
        ),
        (  # "Keeping a log is up to the agency", "is left to the agency's discretion"
            r"\b(?P<be>is|are)\s+(?:entirely\s+)?(?:left\s+(?:up\s+)?to|up\s+to)\s+"
            rf"{_PARTY}(?:'s\s+discretion)?(?=\s*(?:[.;]|$))",
            r"\g<be> at \g<party>'s discretion",
        ),
        (rf"\bit\s+is\s+{_PARTY}\s+who\s", r"\g<party> "),  # "It is the CISO who consults"
        (
            rf"{_DISCLAIMER}(?:authoriz|permit|allow|empower|entitl)\w*\s+{_PARTY}\s+to\s",
            r"\g<party> may not ",
        ),
        (
            rf"{_DISCLAIMER}(?:provid|giv|grant|confer)\w*\s+{_PARTY}\s+(?:with\s+)?"
            r"(?:the\s+|any\s+)?(?:authority|power|right|permission)\s+to\s",
            r"\g<party> may not ",
        ),
        (rf"{_DISCLAIMER}(?:requir|compel|oblig)\w*\s+{_PARTY}\s+to\s", r"\g<party> need not "),
        (
            rf"{_DISCLAIMER}(?:prohibit|prevent|preclud|bar|forbid)\w*\s+{_PARTY}\s+from\s",
            r"\g<party> may ",
        ),
        (  # "This part shall not be construed as superseding State law": it does not
            r"\b(?P<text>(?:this|the)\s+(?:section|part|subpart|subsection|paragraph|chapter|title"
            r"|act|rule|regulation))\s+(?:shall|may|will)\s+not\s+be\s+(?:construed|interpreted"
            r"|deemed|read)\s+(?:as|to)\s+(?P<verb>[a-z]+)\b",
            r"\g<text> does not \g<verb>",
        ),
        (
            rf"{_ENACTMENT}(?:authoriz|permit|allow|empower|entitl)\w*\s+{_PARTY}\s+to\s",
            r"\g<party> may ",
        ),
        (
            rf"{_ENACTMENT}(?:provid|giv|grant|confer)\w*\s+{_PARTY}\s+(?:with\s+)?"
            r"(?:the\s+|any\s+)?(?:authority|power|right|permission)\s+to\s",
            r"\g<party> may ",
        ),
        (rf"{_ENACTMENT}(?:requir|compel|oblig|direct)\w*\s+{_PARTY}\s+to\s", r"\g<party> must "),
        (
            rf"{_ENACTMENT}(?:prohibit|prevent|preclud|bar|forbid)\w*\s+{_PARTY}\s+from\s",
            r"\g<party> must not ",
        ),
    )
)


# A word every periphrasis has, searched first: most texts have none, and are left as they are.
_PERIPHRASE_CUE = re.compile(
    r"\b(?:it\s+is|there\s+is|nothing|but|obligation|duty|responsibility|up\s+to|left\s+to"
    r"|whether|section|part|subpart|subsection|paragraph|chapter|title|act|rule|regulation|law"
    r"|statute)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=16_384)
def plain_modals(text: str) -> str:
    """The text with each modal said around its party rewritten to the plain form (see
    _PERIPHRASES), for reading its rules; positions in it are not the original text's."""
    if not _PERIPHRASE_CUE.search(text):
        return text
    for pattern, plain in _PERIPHRASES:
        text = pattern.sub(plain, text)
    return text


@dataclass(frozen=True, slots=True)
class Reading:
    """One deontic trigger in a text: modality, the words, whom it binds, what it governs."""

    modality: str
    trigger: str
    start: int
    subject: str | None
    action: tuple[str, ...]
    verb: str = ""  # the governed verb's term: "refus" for "be denied" and "refuse"
    passive: bool = False  # "shall be provided": the subject is acted on, not the actor
    agent: str | None = None  # who acts when the subject does not: "by the court"
    recipient: str | None = None  # whom the act addresses: "the covered entity" (roles.py)

    @property
    def subject_terms(self) -> frozenset[str]:
        """Content terms of the subject (empty for none or a pronoun)."""
        if not self.subject or self.subject.lower() in _PRONOUNS:
            return frozenset()
        return frozenset(content_terms(self.subject))


@lru_cache(maxsize=8_192)
def readings(text: str, bare_verb_binds: bool = False) -> tuple[Reading, ...]:
    """Every deontic reading of a text, in order, leaving out triggers inside conditions.

    With bare_verb_binds (for quotes: list items under a "shall:" lead-in), a first sentence
    that opens with a bare verb and has no trigger reads as an obligation without subject.
    """
    text = normalised(text)
    found: list[Reading] = []
    for start, end in sentence_spans(text):
        matches = [
            m
            for m in _TRIGGER_RE.finditer(text, start, end)
            if not _epistemic(text, m) and not _embedded_denial(text, start, m)
        ]
        first = matches[0].start() - start if matches else None
        if not found and bare_verb_binds and _imperative(text[start:end], first):
            found.append(Reading(OBLIGATION, "", start, None, content_terms(text[start:end])))
        floor = start
        for index, match in enumerate(matches):
            stop = matches[index + 1].start() if index + 1 < len(matches) else end
            segment = _segment(text[floor : match.start()], after_trigger=floor > start)
            segment_start = text.rfind(segment, floor, match.start()) if segment else floor
            negated = bool(_NO_SUBJECT.match(text, floor, match.start()))
            floor = match.end()
            if _SUBORDINATE.search(segment) or _restrictive(text, segment_start, segment):
                continue
            if _LIMIT.match(text, match.end()):
                continue  # "shall not exceed $100": a cap, compared as a number
            if _STATED_AIM.search(segment) and _IS_TO.fullmatch(match.group(0)):
                continue  # "The purpose of this part is to ensure": an aim, not a duty
            found.append(_reading(text, match, segment, stop, negated))
    return tuple(found)


def _reading(
    text: str, match: re.Match[str], segment: str, stop: int, negated: bool = False
) -> Reading:
    """The reading of one trigger whose clause runs to stop. A predicative trigger ("is
    optional", "is prohibited") takes its act from the subject ("Disclosing the record is
    prohibited") and binds no party by it; who acts is then a "by" or "for" phrase, if any.
    `negated`: the clause opens with "No one", "Nobody" or "None", whose list may hide them
    from the subject ("No one apprehended, detained or held ... may")."""
    subject = _subject(segment)
    modality = match.lastgroup or PERMISSION
    predicative = bool(_PREDICATIVE.search(match.group(0)))
    if negated or (subject and subject.split()[0].lower() in {"no", "neither", "nothing"}):
        exempts = predicative or bool(_NEED.search(match.group(0)))
        modality = _NEGATED[exempts].get(modality, modality)
    governed = text[match.end() : stop]
    if predicative and not _LIMIT.match(text, match.end()):
        act = _LEADING.sub("", _HEDGE.sub("", segment).strip())
        return Reading(
            modality=modality,
            trigger=match.group(0).lower(),
            start=match.start(),
            subject=None,
            action=content_terms(f"{act} {governed}"),
            verb=_head_term(act),
            passive=True,
            agent=_agent(act + " " + governed, _AGENT_OR_BENEFICIARY),
        )
    passive = bool(_PASSIVE.match(text, match.end()) or _DENIED_PASSIVE.fullmatch(match.group(0)))
    verb = _verb(text, match.end())
    return Reading(
        modality=modality,
        trigger=match.group(0).lower(),
        start=match.start(),
        subject=subject,
        action=content_terms(governed),
        verb=verb,
        passive=passive,
        agent=_agent(governed, _BY_AGENT) if passive else None,
        recipient=subject if passive and verb in TELLING else recipient(governed, verb),
    )


@lru_cache(maxsize=8_192)
def assertions(text: str, verbs: frozenset[str]) -> tuple[Reading, ...]:
    """Readings of the sentences of a claim that state a rule without a modal ("The Secretary
    decides what ...", "Counsel is appointed by the court"): the first word whose term is one
    of `verbs` (the quote's governed verbs) and that is finite ("decides", "determined") or
    passive is the verb, the words before it the subject. A sentence opening with a bare verb
    is an instruction, not a statement about a party."""
    text = normalised(text)
    found = []
    for start, end in sentence_spans(text):
        if _TRIGGER_RE.search(text, start, end) or _imperative(text[start:end]):
            continue
        verb = next(
            (
                w
                for w in _VERB_WORDS.finditer(text, start + 1, end)
                if term(w.group(0)) in verbs and _stated_verb(text[start : w.start()], w.group(0))
            ),
            None,
        )
        if verb is None:
            continue
        before = text[start : verb.start()]
        passive = bool(_BE_BEFORE.search(before))
        segment = _segment(_BE_BEFORE.sub("", before), after_trigger=False)
        if _SUBORDINATE.search(segment):
            continue
        governed = text[verb.start() : end]
        found.append(
            Reading(
                modality=ASSERTION,
                trigger="",
                start=verb.start(),
                subject=_subject(segment),
                action=content_terms(governed),
                verb=term(verb.group(0)),
                passive=passive,
                agent=_agent(governed, _BY_AGENT) if passive else None,
                recipient=None if passive else recipient(governed, term(verb.group(0))),
            )
        )
    return tuple(found)


def _stated_verb(before: str, word: str) -> bool:
    """A word of the right term is the sentence's verb if it is passive ("is appointed") or
    finite ("decides", "determined", "employees earn"); "the agency official" is no verb."""
    return bool(
        _BE_BEFORE.search(before) or _FINITE_VERB.search(word) or _PLURAL_SUBJECT.search(before)
    )


def _head_term(phrase: str) -> str:
    """The term of a phrase's first content word: "keep" for "Keeping a log", "disclos" for
    "Disclosure of records" (an act named by a gerund or a noun)."""
    terms = content_terms(phrase)
    return terms[0] if terms else ""


def _agent(text: str, pattern: re.Pattern[str]) -> str | None:
    """The party named in a clause's "by" phrase (or, for a predicative, "for" phrase): "the
    court" in "counsel shall be appointed by the court"."""
    found = pattern.search(text)
    if not found:
        return None
    party = _AGENT_END.split(found.group("party"), maxsplit=1)[0]
    return party.strip(" ,;:") or None


def _verb(text: str, position: int) -> str:
    """The term of the first verb after a trigger, past adverbs, asides, `be` and `not`."""
    for word in _VERB_WORDS.findall(text, position, position + 120):
        if word.lower() not in _AUXILIARIES and not is_adverb(word):
            return term(word)
    return ""


def _restrictive(text: str, segment_start: int, segment: str) -> bool:
    """A trigger in a restrictive relative clause qualifies a noun: "a number that individuals
    can call", not "researchers, who may identify patients" (which asserts)."""
    opening = _RELATIVE.match(segment)
    if not opening:
        return False
    return opening.group(1).lower() == "that" or text[:segment_start].rstrip()[-1:] != ","


def _segment(before: str, after_trigger: bool) -> str:
    """The words between the last clause boundary and a trigger, without leading
    subordinators' commas: "If X, the covered entity" gives "the covered entity". An aside in
    parentheses is no boundary: "No party (except employees of the office) may" keeps its
    subject, "No party"; an enumerator ("(a) The entity must") still is one."""
    masked = _ASIDE.sub(lambda aside: " " * len(aside.group(0)), before)
    cuts = list(_BOUNDARY.finditer(masked))
    if after_trigger:
        cuts += list(_CONJUNCTION.finditer(masked))
    last = max((c.end() for c in cuts), default=0)
    return before[last:].strip()


@lru_cache(maxsize=16_384)
def without_triggers(text: str) -> str:
    """The text with its deontic triggers blanked: what is left is what the rule is about."""
    return _TRIGGER_RE.sub(" ", normalised(text))


def _embedded_denial(text: str, start: int, match: re.Match[str]) -> bool:
    """A "does not" of a relative clause or a condition ("an employee who does not return",
    "if the person does not respond"): it describes the subject or the case, and the clause
    around it is the next trigger's subject, not a clause of its own."""
    if match.lastgroup != DENIAL:
        return False
    return bool(_CLAUSE_OPENER.search(_segment(text[start : match.start()], after_trigger=False)))


def _epistemic(text: str, match: re.Match[str]) -> bool:
    """`may` or `can` that speaks of possibility: "whether the information may be included"."""
    if match.lastgroup != PERMISSION or match.group(0).lower() not in {"may", "can", "could"}:
        return False
    following = text[match.end() : match.end() + 20].split()
    verb = following[0].lower().strip(",.;") if following else ""
    if _PASSIVE_BY.match(text, match.end()):
        return False  # "it may be conducted by the Chairman": a permission to act
    return verb in _EPISTEMIC_VERBS and bool(
        _EPISTEMIC.search(text[max(0, match.start() - 80) : match.start()])
    )


def _subject(segment: str) -> str | None:
    """The noun phrase of a clause segment before its trigger: without hedges ("It appears",
    "generally"), leading links, relative or prepositional tails, at most twelve words."""
    segment = _LEADING.sub("", _HEDGE.sub("", _ASIDE.sub(" ", segment)).strip())
    segment = _SUBJECT_TAIL.sub("", segment)
    words = [w for w in segment.split() if not w.lower().endswith("ly") or w[0].isupper()]
    if not words or words[0].lower() in _PREPOSITIONS:
        return None  # "in consultation with ...": an adverbial, the subject is elsewhere
    return " ".join(words[:_MAX_SUBJECT_WORDS]).strip(" ,;:")


def _imperative(sentence: str, first_trigger: int | None = None) -> bool:
    """A sentence that opens with a bare verb: "Retain the accounting ...", "Include a ...",
    "If the statement is made orally, document the statement". Not one whose first trigger
    follows a few words with no break: those are its subject ("Credit hours cannot be ...")."""
    if first_trigger is not None:
        opening = sentence[:first_trigger]
        if len(opening.split()) <= _SHORT_SUBJECT and not _BOUNDARY.search(opening):
            return False
    main = _OPENING_CONDITION.sub("", sentence)
    words = main.split()
    if main != sentence and words and words[0][:1].isupper():
        return False  # "Once confirmed, HackerOne staff award ...": a name after the condition
    first = words[0].lower() if words else ""
    return (
        first.isalpha()
        and not _NOUN_OF.match(main)
        and not _TRIGGER_RE.match(main)
        and first not in _IMPERATIVE_BLOCKERS
        and not first.endswith(("ing", "ed"))
        and not _FINITE.match(main)
    )
