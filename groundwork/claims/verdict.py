"""Claim-level verification: does a quote support one atomic claim, the way an auditor reads it?

`checked_claim(claim, quote)` returns SUPPORTED, PARTIAL, UNSUPPORTED or CONTRADICTED with the
issues found and a one-sentence reason. Offline, deterministic, rules only. The checks, in the
order their findings decide:

1. **Topic.** The share of the claim's content terms the quote states (stems, legal synonyms,
   acronyms spelled out; groundwork.claims.lexicon). Under OFF_TOPIC the claim is about
   something else: UNSUPPORTED, whatever else it says.
2. **Conflicts → CONTRADICTED.** A number that differs from the quote's number of the same kind
   (or the same value under another bound: "500 or more" for "more than 500"); a period of
   recurrence that differs ("every three years" for "annually", "at least once every 12
   months" for "not more often than once every 12 months"; groundwork.claims.frequency); an
   antonym of
   the quote's deadline anchor ("earlier" for "later"); a modality that differs for the same
   action (may vs must, must not vs may, need not vs must); another actor bearing the duty, or
   another recipient of it, roles reversed included (groundwork.claims.roles; a claim with no
   modal, "The Secretary decides ...", is read against the quote's verbs, and a quote with no
   modal, "The official consults counsel", against the claim's words); a negation the
   quote does not have, said with "not" ("does not apply" for "applies") or with the verb
   that undoes the quote's ("shall deny" for "shall grant"; "must withhold" for "may not
   disclose" is the same rule). A claim whose subject is the beneficiary of the quote's duty
   ("clients can inspect" for "the facility shall allow clients to inspect") states its other
   side; one that has the giver receive ("the Secretary receives the report from the State"
   for "the Secretary shall provide the report to the State") swaps the recipient.
3. **Inventions → UNSUPPORTED.** The opposite act under a modality that neither restates nor
   conflicts ("may shorten" for "may extend"), a frequency ("every year") where the quote sets
   none, a restriction ("only if it is made in writing") the quote does not make, or a number
   of a kind the quote does not state at all.
4. **Omissions → PARTIAL.** An exception or condition of the quote that the claim drops, a
   quote number (deadline, threshold) the claim leaves out, or a universal word ("every",
   "any") that widens a rule the quote restricts.
5. Otherwise SUPPORTED.

These checks are one list, `CHECKS`, and the list is the decision: each check reads the
`Case` (the two texts, their readings, numbers, number conflicts, unused quote numbers, the
depth, all read once) and returns what it `Found`; `checked_claim` walks the list in order, and
the first check that finds something gives its verdict and reason. The checks after it that
give the same verdict for the same reason add their issues: a CONTRADICTED claim names every
conflict, a PARTIAL one every omission. benchmarks/ablation.py turns a check off by taking it
out of the list, and the tests read it.

Depth (`claim_depth`): "full" for assertive claims, "light" for hedged ones. A hedge
("generally", "typically", "it appears", "may need to"; groundwork.claims.hedges) announces that
the claim is not the whole rule, so a light check does not fault it for dropping the quote's
*exceptions* (and scope words). Per the labelling convention (data/labels/README.md) a hedge
does not excuse a dropped *condition, threshold or deadline*, so those are still checked, and
every conflict is checked at both depths.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import NamedTuple

from groundwork.claims.frequency import frequency, other_period, restated, without_periods
from groundwork.claims.hedges import hedges_in, without_opening_hedge
from groundwork.claims.lexicon import (
    content_terms,
    matches,
    normalised,
    phrased,
    spelled_out,
    support,
    term,
)
from groundwork.claims.lexicon import unstated_terms as _unstated
from groundwork.claims.modality import (
    ASSERTION,
    DENIAL,
    EXEMPTION,
    MODAL_WORDS,
    OBLIGATION,
    PERMISSION,
    PROHIBITION,
    Reading,
    assertions,
    plain_modals,
    readings,
    without_triggers,
)
from groundwork.claims.numeric import (
    BOUND,
    UNIT,
    UNMATCHED,
    VALUE,
    NumberConflict,
    NumberMatch,
    anchor,
    bound,
    bounded,
    number_matches,
)
from groundwork.claims.qualifiers import EXCEPTION, kept, qualifiers
from groundwork.claims.roles import (
    ACTOR_SLOT,
    ENABLING,
    HANDING,
    RECEIVING,
    ROLE_NOUNS,
    TELLING,
    TITLES,
    generic,
    head,
    head_terms,
    is_party,
    named_terms,
    party_slots,
    same_party,
)
from groundwork.text.numbers import Mention, mentions
from groundwork.wording.grammar import POINTING_PRONOUNS
from groundwork.wording.lists import records

SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED = (
    "SUPPORTED",
    "PARTIAL",
    "UNSUPPORTED",
    "CONTRADICTED",
)
FULL, LIGHT = "full", "light"
OFF_TOPIC = 0.5  # under this share of its terms stated, a claim is about something else
# The reasons the verdicts give, each filled with its finding (CHECKS names which check gives it).
_OFF_TOPIC_REASON = "The quote is about something else: it does not state {}."
_OTHER_PARTY_REASON = "The claim states another party's rule: {}, not {}."
_CONFLICT_REASON = "The claim conflicts with the quote ({})."
_OPPOSITE_ACT_REASON = "The quote does not state the opposite act ({})."
_NO_FREQUENCY_REASON = "The quote sets no frequency such as {}."
_NO_RESTRICTION_REASON = "The quote sets no such restriction as '{}'."
_NO_NUMBER_REASON = "The quote states no {} such as {}."
_DROPPED_REASON = "The claim states the rule but drops what limits it ({})."
_SUPPORTED_REASON = "The quote states what the claim says."
_CONFLICTING_MODALITIES = {
    frozenset({OBLIGATION, PERMISSION}),
    frozenset({PROHIBITION, PERMISSION}),
    frozenset({OBLIGATION, EXEMPTION}),
}
_MAY_OR_MUST_NOT = frozenset({PROHIBITION, PERMISSION})  # compared for the same act only
# A plain "does not" against "does" or "must", for the same act and object.
_DENIED = {frozenset({ASSERTION, DENIAL}), frozenset({OBLIGATION, DENIAL})}
_NEGATING = {frozenset({OBLIGATION, PROHIBITION}), *_DENIED}
# Verbs that undo each other: "shall deny the request" is "shall not grant" it, "must withhold
# the chart" is "may not disclose" it. A claim's modality for the opposite verb is turned into
# the one it means for the quote's verb before the two are compared (_INVERSE).
_OPPOSITE_VERBS = tuple((term(a), term(b), f"{a} vs {b}") for a, b in records("opposite_verbs", 2))
_INVERSE = {
    OBLIGATION: PROHIBITION,
    PROHIBITION: OBLIGATION,
    PERMISSION: EXEMPTION,
    EXEMPTION: PERMISSION,
    ASSERTION: DENIAL,
    DENIAL: ASSERTION,
}
_CORRELATIVE = re.compile(r"entitled|right", re.IGNORECASE)  # "X is entitled to": Y's duty
_ANTONYMS = records("antonyms", 3)  # (word, opposite, what differs when a claim swaps them)
# "No cap", "unlimited": the claim denies a limit the quote sets.
_NO_LIMIT = re.compile(
    r"\b(?:no|without\s+(?:a|any))\s+(?:\w+\s+)?(?:cap|limit|ceiling|maximum)\b"
    r"|\bunlimited\b|\bany\s+amount\b",
    re.IGNORECASE,
)
_LIMIT = re.compile(
    r"\bnot\s+(?:to\s+)?exceed(?:ing)?\b|\b(?:no|not)\s+(?:more|greater|higher)\s+than\b"
    r"|\bup\s+to\b|\bat\s+most\b|\bmaximum\b|\bcap(?:ped)?\b|\bceiling\b|\blimited\s+to\b",
    re.IGNORECASE,
)
# "At any time", "no deadline": a period the text leaves open.
_OPEN_ENDED = re.compile(
    r"\bat\s+any\s+time\b|\bindefinitely\b|\bnot\s+bound\s+by\s+(?:any|a)\s+(?:deadline|time)"
    r"|\b(?:no|without\s+(?:a|any))\s+(?:fixed\s+)?(?:deadline|time\s+limit|term|period|duration)\b",
    re.IGNORECASE,
)
# The moment of an event, as a deadline: "on receipt of the notice", "when you establish".
_AT_EVENT = re.compile(
    r"\b(?:on|upon|at\s+the\s+time\s+(?:of|that)|when|once)\s+(?P<event>(?:\S+\s+){0,3}\S+)",
    re.IGNORECASE,
)
_AFTER = re.compile(r"\b(?:after|following)\b", re.IGNORECASE)
_PRONOUN_ACTORS = POINTING_PRONOUNS
_ONLY_WORD = re.compile(r"\b(?:only|solely|exclusively)\b", re.IGNORECASE)
# "only A, not B", "only A rather than B": B is expressly left out.
_ONLY_NOT = re.compile(
    r"\b(?:only|solely|exclusively)\b[^.;]*?(?:,\s*(?:but\s+)?not|\brather\s+than)\s+"
    r"(?:(?:an?|the|any|its|their|your|his|her)\s+)?(?P<word>[A-Za-z-]{3,})",
    re.IGNORECASE,
)
_PREFIX = 5  # letters of a stem its word family shares (lexicon.matches)
# "without (any) prior public comment": what a rule does without, up to a clause's end.
_WITHOUT = re.compile(
    r"\bwithout\s+(?P<what>(?:[\w'-]+\s+){0,5}?[\w'-]+)"
    r"(?=\s*(?:[,;.:(]|$|\s(?:or|and|but|unless|if|when|to|in|under)\b))",
    re.I,
)
# A claim that denies or waives something in any wording.
_NEGATION_WORD = re.compile(
    r"\b(?:no|not|without|never|none|neither|nor|absent|lacking|regardless|unless"
    r"|whether\s+or\s+not)\b|n't\b",
    re.IGNORECASE,
)
_ONLY_PARTY = re.compile(r"(?:only|solely)\s", re.IGNORECASE)
_MAY_OR_MUST = {"modality changed: may vs must", "modality changed: must vs may"}
_ANY_PARTY = re.compile(r"(?:any|each|every|all)\s", re.IGNORECASE)
_PARTY_AND = re.compile(r"\s+(?:and|as\s+well\s+as)\s+", re.IGNORECASE)
_REPORTING = TELLING | {term("report")}  # verbs whose recipient is the party told
_OBJECT_TERMS = 4  # the first terms of a clause's action: its verb and object
_SAME_OBJECT = 0.66  # share of its object terms a claim must share with the quote's act (2 in 3)
_SIMILAR_OBJECT_TERMS = 2  # object terms two clauses of one party share to be about one act
_WORDS = re.compile(r"[A-Za-z]+")
_DETERMINER = re.compile(r"^(?:a|an|the|any|each|every|such|this|that)\s+", re.IGNORECASE)
_ONLY = re.compile(r"only|solely", re.IGNORECASE)
_UNIVERSALS = re.compile(
    r"\b(?:every(?:one|body)?|all|any|each|always|whatever|whenever|regardless)\b", re.I
)
_WHEN = re.compile(r"\b(?:when|if)\b", re.I)  # "whenever X" restates "when X", "if X"


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The verdict on one claim against one quote.

    `issues` name each finding as "what: claim's vs quote's" ("modality changed: may vs must",
    "deadline differs: 90 days vs 60 days"); `support` is the share of the claim's content terms
    the quote states; `numbers` holds each claim number's match.
    """

    verdict: str
    reason: str
    issues: tuple[str, ...]
    support: float
    numbers: tuple[NumberMatch, ...]


def claim_depth(claim: str) -> str:
    """ "light" for a hedged claim, "full" for an assertive one (see the module docstring)."""
    return LIGHT if hedges_in(claim) else FULL


def checked_claim(
    claim: str, quote: str, depth: str = FULL, tolerance: float = 0.005
) -> ClaimCheck:
    """The verdict on a claim against the quote it cites (see the module docstring)."""
    if depth not in (FULL, LIGHT):
        raise ValueError(f"depth must be {FULL!r} or {LIGHT!r}, not {depth!r}")
    case = Case.read(claim, quote, depth, tolerance)
    verdict, reason, issues = _decision(case)
    return ClaimCheck(verdict, reason, issues, case.share, case.numbers)


@dataclass(frozen=True)
class Case:
    """One claim against one quote, as every check reads it: both texts normalised (acronyms
    spelled out), the depth, the share of the claim's terms the quote states, and the numbers
    matched (each claim number's match, the conflicts, the quote's numbers the claim leaves
    unused). The readings of the two texts are read once, when a check first asks for them:
    the off-topic check decides most unrelated claims before any check needs them."""

    claim: str
    quote: str
    depth: str
    share: float
    numbers: tuple[NumberMatch, ...]
    conflicts: tuple[NumberConflict, ...]
    unused: tuple[Mention, ...]

    @classmethod
    def read(cls, claim: str, quote: str, depth: str = FULL, tolerance: float = 0.005) -> Case:
        """The case of `claim` against `quote`, its numbers matched within `tolerance`."""
        claim_text = spelled_out(normalised(claim), quote)
        quote_text = spelled_out(normalised(quote), claim)
        share = round(support(_unmodal(claim_text), _unmodal(quote_text)), 4)
        matched = number_matches(claim_text, quote_text, tolerance)
        return cls(claim_text, quote_text, depth, share, *matched)

    @cached_property
    def rules(self) -> tuple[tuple[Reading, ...], tuple[Reading, ...]]:
        """The quote's readings and the claim's (_rules)."""
        return _rules(self.claim, self.quote)

    @cached_property
    def aligned(self) -> tuple[tuple[Reading, Reading], ...]:
        """Each claim reading with the quote's reading about the same act (none where the
        quote has no reading)."""
        quote_readings, claim_readings = self.rules
        pairs = ((reading, _aligned(reading, quote_readings)) for reading in claim_readings)
        return tuple((reading, aligned) for reading, aligned in pairs if aligned is not None)

    @cached_property
    def correlatives(self) -> tuple[tuple[Reading, Reading], ...]:
        """The aligned readings where the claim states the other side of the quote's duty."""
        return tuple(pair for pair in self.aligned if _correlative(*pair))

    @cached_property
    def unstated(self) -> tuple[tuple[Reading, Reading], ...]:
        """The aligned readings that are no correlative and that no clause of the quote states
        as they are: the ones whose modality and parties are compared."""
        quote_readings = self.rules[0]
        return tuple(
            (reading, aligned)
            for reading, aligned in self.aligned
            if not _correlative(reading, aligned) and not _stated(reading, quote_readings)
        )


class Found(NamedTuple):
    """What one check found: its issues (none when it found nothing), and the words its
    reason is filled with, the first issue unless the check names others."""

    issues: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


NOTHING = Found()


def _decision(case: Case) -> tuple[str, str, tuple[str, ...]]:
    """The verdict, reason and issues of the first check of CHECKS that finds something.
    Every later check that gives the same verdict for the same reason adds its issues (so a
    CONTRADICTED claim names all its conflicts, the first in the reason); none finding
    anything, SUPPORTED. CHECKS is read at each call, so the ablation can turn a check off."""
    for index, check in enumerate(CHECKS):
        found = check.finds(case)
        if not found.issues:
            continue
        alike = (
            c for c in CHECKS[index + 1 :] if (c.verdict, c.reason) == (check.verdict, check.reason)
        )
        issues = found.issues + tuple(i for c in alike for i in c.finds(case).issues)
        reason = check.reason.format(*(found.words or found.issues[:1]))
        return check.verdict, reason, tuple(dict.fromkeys(issues))
    return SUPPORTED, _SUPPORTED_REASON, ()


def _unmodal(text: str) -> str:
    """What a text's rule is about: its modal words, periphrases included, left out."""
    return without_triggers(plain_modals(text))


def _rules(claim: str, quote: str) -> tuple[tuple[Reading, ...], tuple[Reading, ...]]:
    """The quote's readings and the claim's, its modal-less statements read against the
    quote's verbs, both with periphrases of modals made plain."""
    quote_text, claim_text = plain_modals(quote), plain_modals(without_opening_hedge(claim))
    quote_readings = readings(quote_text, bare_verb_binds=True)
    claim_readings = readings(claim_text)
    if not quote_readings:  # "The official consults counsel": a statement of who does what
        quote_readings = assertions(quote_text, frozenset(content_terms(claim_text)))
    verbs = _with_opposites(frozenset(r.verb for r in quote_readings if r.verb))
    denied = frozenset(r.verb for r in claim_readings if r.modality == DENIAL and r.verb)
    if denied:  # "does not supersede" against the quote's plain "supersedes"
        quote_readings += assertions(quote_text, _with_opposites(denied))
    return quote_readings, claim_readings + assertions(claim_text, verbs)


def _with_opposites(verbs: frozenset[str]) -> frozenset[str]:
    """The verbs and the verbs that undo them (_OPPOSITE_VERBS)."""
    return verbs | {b if a in verbs else a for a, b, _ in _OPPOSITE_VERBS if {a, b} & verbs}


def _opposition(mine: str, theirs: str) -> str | None:
    """How the claim's verb undoes the quote's ("deny vs grant"), or None."""
    for a, b, words in _OPPOSITE_VERBS:
        if (mine, theirs) == (b, a):
            return " vs ".join(reversed(words.split(" vs ")))
        if (mine, theirs) == (a, b):
            return words
    return None


def _off_topic(case: Case) -> Found:
    """Too few of the claim's terms in the quote: it is about something else. A figure in
    another unit (5 calendar days for 5 business days) still marks the same fact."""
    if case.share >= OFF_TOPIC or any(c.what == UNIT for c in case.conflicts):
        return NOTHING
    missing = ", ".join(_unstated(case.claim, case.quote)[:6])
    return Found((f"not in quote: {missing}",), (missing,))


def _other_partys_rule(case: Case) -> Found:
    """Another figure for another actor, neither text naming the other's ("clearinghouses had
    to comply by April 20, 2005" for "a small health plan must comply no later than April 20,
    2006"): two facts differ at once, so the claim states another requirement rather than
    misstating this one. The actor is any subject named by a noun, since the kinds of
    regulated body ("clearinghouse", "issuer") are too many to list as party nouns."""
    # A date has no value, so a date conflict is told by its kind.
    if not any(c.what == VALUE or c.kind == "date" for c in case.conflicts):
        return NOTHING
    quote_readings, claim_readings = case.rules
    mine = _named_actors(claim_readings)
    theirs = _named_actors(quote_readings)
    if not mine or not theirs or generic(mine[0]) or generic(theirs[0]):
        return NOTHING
    claim_terms = frozenset(content_terms(case.claim))
    quote_terms = frozenset(content_terms(case.quote))
    if matches(_head_noun(mine[0]), quote_terms) or matches(_head_noun(theirs[0]), claim_terms):
        return NOTHING
    mine_bare, theirs_bare = _bare(mine[0]), _bare(theirs[0])
    return Found((f"other requirement: {mine_bare} vs {theirs_bare}",), (mine_bare, theirs_bare))


def _named_actors(text_readings: tuple[Reading, ...]) -> list[str]:
    """The heads of the actors these readings name (not by a pronoun), in order."""
    heads = [head(_actor(r)) for r in text_readings]
    return [h for h in heads if head_terms(h) and h.lower() not in _PRONOUN_ACTORS]


def _head_noun(party: str) -> str:
    """The term of a party's last word, the noun that says who it is: "clearinghous" for
    "health care clearinghouses"."""
    words = party.split()
    return term(words[-1]) if words else ""


def _number_conflicts(case: Case) -> Found:
    """Numbers that differ from the quote's number of the same kind, or its bound."""
    return Found(tuple(map(_conflict_issue, case.conflicts)))


def _other_frequency(case: Case) -> Found:
    """A period of recurrence that differs from the quote's (groundwork.claims.frequency)."""
    recurrence = other_period(case.claim, case.quote)
    return Found(("frequency differs: {} vs {}".format(*recurrence),)) if recurrence else NOTHING


def _invented_frequency(case: Case) -> Found:
    """A frequency ("every year") where the quote sets none."""
    how_often = frequency(case.claim)
    if not how_often or frequency(case.quote):
        return NOTHING
    return Found((f"frequency not in quote: {how_often}",), (how_often,))


def _invented_restriction(case: Case) -> Found:
    """An "only" restriction ("only if it is made in writing") the quote does not make."""
    narrowed = [
        q.text
        for q in qualifiers(case.claim)
        if _ONLY.match(q.text) and not kept(q, case.quote, case.claim)
    ]
    if not narrowed:
        return NOTHING
    return Found(tuple(f"condition not in quote: {n}" for n in narrowed), (narrowed[0],))


def _invented_numbers(case: Case) -> Found:
    """Numbers of a kind the quote does not state at all (a recurrence it restates aside)."""
    recurring = restated(case.claim, case.quote)
    invented = [
        n
        for n in case.numbers
        if n.status == UNMATCHED
        and not _is_article(n)
        and not any(n.surface in p.surface for p in recurring)
    ]
    if not invented:
        return NOTHING
    issues = tuple(f"number not in quote: {n.surface}" for n in invented)
    return Found(issues, (invented[0].kind, invented[0].surface))


def _omissions(case: Case) -> Found:
    """Qualifiers and numbers of the quote the claim drops, and scope it widens."""
    claim, quote = case.claim, case.quote
    issues = [
        f"missing qualifier: {q.text}"
        for q in qualifiers(quote)
        if not (case.depth == LIGHT and q.kind == EXCEPTION) and not kept(q, claim, quote)
    ]
    recurring = restated(quote, claim)
    issues += [
        f"missing qualifier: {bounded(quote, n)}"
        for n in case.unused
        if not any(p.start <= n.start and n.end <= p.end for p in recurring)
    ]
    widened = _UNIVERSALS.search(without_periods(claim))
    if widened and widened.group(0).lower() == "whenever" and _WHEN.search(quote):
        widened = None
    if case.depth == FULL and widened and not _UNIVERSALS.search(quote):
        issues.append(f"scope broadened: {widened.group(0)}")
    return Found(tuple(issues))


def _conflict_issue(conflict: NumberConflict) -> str:
    what = "deadline differs" if conflict.kind in ("duration", "date") else "number differs"
    if conflict.what == BOUND:
        what = "bound differs"
    return f"{what}: {conflict.claim} vs {conflict.quote}"


def _is_article(number: NumberMatch) -> bool:
    """One of something is usually an article ("one free accounting", "in one calendar year"),
    not a figure."""
    return number.kind in ("count", "duration") and number.value == Decimal(1)


def _parties_left_out(case: Case) -> Found:
    """The quote's parties an "only" claim excludes (_left_out), clause by clause."""
    return Found(tuple(i for pair in case.aligned for i in _left_out(*pair)))


def _denied_rights(case: Case) -> Found:
    """What the beneficiary of the quote's duty is said to have no right to (_denied_right)."""
    return Found(tuple(i for pair in case.correlatives for i in _denied_right(*pair)))


def _modality_conflicts(case: Case) -> Found:
    """Modalities and negations that differ for the same act (_modality_conflict). "may be
    applied only on a physician's order" restates "shall be effected only by ... order": with
    "only", what a party may do and what it must do are one restriction."""
    restricted = bool(_ONLY_WORD.search(case.claim) and _ONLY_WORD.search(case.quote))
    return Found(
        tuple(
            issue
            for pair in case.unstated
            for issue in _modality_conflict(*pair)
            if not (restricted and issue in _MAY_OR_MUST)
        )
    )


def _party_conflicts(case: Case) -> Found:
    """Another actor or recipient of the quote's act (_changed_parties), clause by clause."""
    return Found(tuple(i for pair in case.unstated for i in _changed_parties(*pair, case.quote)))


def _delayed_moment(case: Case) -> Found:
    """A period after an event where the quote, setting no period, makes the event itself the
    time: "final 30 days after the respondent receives the notice" for "final on receipt of the
    notice", "within 30 days after establishing the relationship" for "not later than when you
    establish the relationship". The claim moves a deadline the quote fixes."""
    claim, quote = case.claim, case.quote
    moments = [(m.group(0), content_terms(m.group("event"))[:1]) for m in _AT_EVENT.finditer(quote)]
    if not moments or not _AFTER.search(claim) or _deadline_set(quote):
        return NOTHING
    for number in mentions(claim):
        start = anchor(claim, number) if number.kind == "duration" else ""
        if not _AFTER.match(start):
            continue
        event = frozenset(content_terms(start))
        for moment, (first, *_) in ((m, t) for m, t in moments if t):
            if matches(first, event):
                return Found((f"deadline differs: {bounded(claim, number)} {start} vs {moment}",))
    return NOTHING


def _required_where_waived(case: Case) -> Found:
    """What the quote does without, the claim, denying nothing, makes a step of the rule:
    "could take effect only after a prior public comment period" for "effective upon
    publication, without opportunity for any prior public comment"."""
    claim, quote = case.claim, case.quote
    if _NEGATION_WORD.search(claim) or _words(claim) in _words(quote):
        return NOTHING  # a claim that is the quote's own words, a part of it, waives nothing anew
    claim_terms = frozenset(content_terms(claim))
    for found in _WITHOUT.finditer(quote):
        waived = content_terms(found.group("what"))
        said = [t for t in waived if matches(t, claim_terms)]
        if waived and matches(waived[-1], claim_terms) and 2 * len(said) > len(waived):
            return Found((f"negation differs: {found.group(0).strip()}",))
    return NOTHING


def _words(text: str) -> str:
    """The text's words in lower case, one space apart, to find one text inside another."""
    return " ".join(text.lower().split())


def _excluded(case: Case) -> Found:
    """What an "only" claim expressly leaves out though the quote covers it: "only its own
    internal incidents, not external ones" for "internal or external incidents"."""
    if _ONLY_WORD.search(case.quote):
        return NOTHING
    quote_terms = frozenset(content_terms(case.quote))
    return Found(
        tuple(
            f"scope narrowed: not {found.group('word')}"
            for found in _ONLY_NOT.finditer(case.claim)
            if matches(term(found.group("word")), quote_terms)
        )
    )


def _substituted_parties(case: Case) -> Found:
    """A party the claim puts where the quote names another, when neither text names the
    other's party at all: "file a complaint with the State attorney general" for "with the
    Secretary", "repaid by the nonprofit entity" for "by the residents". Who acts is the same
    role whether said as subject or in a "by" phrase."""
    claim, quote = case.claim, case.quote
    quote_readings, claim_readings = case.rules
    claim_terms, quote_terms = frozenset(content_terms(claim)), frozenset(content_terms(quote))
    issues = []
    theirs = _slots(quote, quote_readings)
    for slot, party in _slots(claim, claim_readings):
        if any(matches(t, quote_terms) for t in named_terms(party)):
            continue
        for other_slot, other in theirs:
            absent = not any(matches(t, claim_terms) for t in named_terms(other))
            if other_slot == slot and absent and not (generic(party) and generic(other)):
                what = "actor" if slot == ACTOR_SLOT else "recipient"
                issues.append(f"{what} changed: {_bare(party)} vs {_bare(other)}")
                break
    return Found(tuple(issues))


def _slots(text: str, text_readings: tuple[Reading, ...]) -> list[tuple[str, str]]:
    """The party slots of a text: its "to", "with", "from", "by" phrases and the actors of
    its readings."""
    actors = [(ACTOR_SLOT, head(_actor(r))) for r in text_readings if is_party(head(_actor(r)))]
    return party_slots(text) + actors


def _stated(reading: Reading, quote_readings: tuple[Reading, ...]) -> bool:
    """Some clause of the quote states the claim's reading as it is: the same act with the same
    modality and the same actor. Another clause of a two-clause quote ("may deny ..., but must
    provide ...") is then no conflict, whichever clause the alignment picked."""
    return bool(reading.verb) and any(
        q.modality == reading.modality
        and q.verb == reading.verb
        and _same_or_unsaid(_actor(reading), _actor(q))
        and _same_or_unsaid(reading.recipient, q.recipient)
        for q in quote_readings
    )


def _same_or_unsaid(mine: str | None, theirs: str | None) -> bool:
    """The claim or the quote's clause names no such party (a clause sharing the subject of
    the one before it names none), or both name the same one."""
    mine_head, theirs_head = head_terms(mine), head_terms(theirs)
    return not mine_head or not theirs_head or same_party(mine_head, theirs_head)


def _denied_limits(case: Case) -> Found:
    """A limit one text sets and the other denies: "no cap" for "shall not exceed $25"; "at
    any time" for "within 30 days", and the other way round."""
    claim, quote = case.claim, case.quote
    issues = []
    no_limit, limit = _NO_LIMIT.search(claim), _LIMIT.search(quote)
    if no_limit and limit and not _NO_LIMIT.search(quote):
        issues.append(f"negation differs: {no_limit.group(0)} vs {limit.group(0)}")
    for open_text, bounded_text, open_first in ((claim, quote, True), (quote, claim, False)):
        open_ended = _OPEN_ENDED.search(open_text)
        period = _deadline(bounded_text) if open_ended else None
        if open_ended and period and not _OPEN_ENDED.search(bounded_text):
            pair = (open_ended.group(0), period) if open_first else (period, open_ended.group(0))
            issues.append(f"deadline differs: {pair[0]} vs {pair[1]}")
    return Found(tuple(issues))


@lru_cache(maxsize=8_192)
def _deadline_set(quote: str) -> bool:
    """The quote states a period (cached: a quote is checked against every claim citing it)."""
    return any(n.kind == "duration" for n in mentions(quote))


def _deadline(text: str) -> str | None:
    """The first period a text sets as an upper bound ("within 30 days"), with its bound."""
    for number in mentions(text):
        if number.kind == "duration" and (bound(text, number) or ("",))[0] == "upper":
            return bounded(text, number)
    return None


def _correlative(reading: Reading, aligned: Reading) -> bool:
    """The claim states the other side of the quote's duty: "X is entitled to" or "has the
    right to" what Y must do, "clients can inspect" where the facility shall allow clients to
    inspect, "each borrower must receive a notice" where the lender must give each borrower a
    notice. The beneficiary is then the claim's subject, not another duty holder."""
    if reading.subject_terms & aligned.subject_terms:
        return False
    if _CORRELATIVE.search(reading.trigger):
        return True
    beneficiary = head_terms(reading.subject)
    action = frozenset(aligned.action)
    if not beneficiary or not all(matches(t, action) for t in beneficiary):
        return False
    enabled = (
        reading.modality == PERMISSION
        and aligned.modality in (OBLIGATION, PERMISSION)
        and aligned.verb in ENABLING
        and matches(reading.verb, action)
    )
    received = reading.verb in RECEIVING and aligned.verb in TELLING | HANDING
    return enabled or (received and reading.modality == aligned.modality)


def _denied_right(reading: Reading, aligned: Reading) -> list[str]:
    """The beneficiary of the quote's duty "is not entitled to" or "has no right to" what the
    duty gives: "the individual has no right to a copy" where the entity shall provide one."""
    if reading.modality == PROHIBITION and aligned.modality == OBLIGATION:
        return [f"negation differs: {reading.trigger} vs {MODAL_WORDS[OBLIGATION]}"]
    return []


def _modality_conflict(reading: Reading, aligned: Reading) -> list[str]:
    """May for must, must not for may, need not for must (for the same act or, but for may
    against must not, the same actor), and must for must not; "does not" for "does" or "must";
    the opposite verb under a modality that makes it a conflict ("shall deny" for "shall
    grant", not "must withhold" for "may not disclose")."""
    opposition = _opposition(reading.verb, aligned.verb)
    if opposition:
        pair = frozenset({_INVERSE[reading.modality], aligned.modality})
        negated = (pair in _CONFLICTING_MODALITIES or pair in _NEGATING) and _same_object(
            reading, aligned
        )
        return [f"negation differs: {opposition}"] if negated else []
    words = f"{MODAL_WORDS[reading.modality]} vs {MODAL_WORDS[aligned.modality]}"
    pair = frozenset({reading.modality, aligned.modality})
    if pair in _DENIED:
        denied = _same_act(reading, aligned) and _same_object(reading, aligned)
        return [f"negation differs: {words}"] if denied else []
    same_act = _same_act(reading, aligned) or _similar_act(reading, aligned)
    same_actor = bool(reading.subject_terms & aligned.subject_terms)
    if pair in _CONFLICTING_MODALITIES and (same_act or (same_actor and pair != _MAY_OR_MUST_NOT)):
        return [f"modality changed: {words}"]
    if pair == {OBLIGATION, PROHIBITION} and same_act:
        return ["negation differs"]
    return []


def _undone_acts(case: Case) -> Found:
    """The opposite of the quote's act under a modality that neither restates nor conflicts
    with the quote's: "may shorten the deadline" for "may extend the deadline" (the quote
    lets the party do the one, and says nothing of the other)."""
    quote_readings = case.rules[0]
    undone = []
    for reading, aligned in case.aligned:
        if _stated(reading, quote_readings):
            continue
        opposition = _opposition(reading.verb, aligned.verb)
        pair = frozenset({_INVERSE[reading.modality], aligned.modality})
        if opposition and len(pair) == 2 and pair not in _CONFLICTING_MODALITIES | _NEGATING:
            undone.append(opposition)
    return Found(tuple(f"other act: {u}" for u in undone), tuple(undone[:1]))


def _same_object(reading: Reading, aligned: Reading) -> bool:
    """Two in three of the claim's object terms (its action's but the verb, and a passive
    subject) are the quote's: "does not apply to small plans" and "applies to plans that offer
    loans" are about different objects."""
    mine = _object_terms(reading)
    theirs = _object_terms(aligned) | frozenset(aligned.action)
    return not mine or sum(matches(t, theirs) for t in mine) >= _SAME_OBJECT * len(mine)


def _object_terms(reading: Reading) -> frozenset[str]:
    return (frozenset(reading.action) - {reading.verb}) | (
        reading.subject_terms if reading.passive else frozenset()
    )


def _similar_act(reading: Reading, aligned: Reading) -> bool:
    """The same party and, in other verbs, the same object: "may be held in a correctional
    institution" for "may not be confined in a ... correctional institution"."""
    if not reading.subject_terms & aligned.subject_terms:
        return False
    action = frozenset(aligned.action)
    shared = {t for t in reading.action if t != reading.verb and matches(t, action)}
    return len(shared) >= _SIMILAR_OBJECT_TERMS


def _changed_parties(reading: Reading, aligned: Reading, quote: str) -> list[str]:
    """Another actor for the quote's act, or (for the same act) another recipient."""
    issues = []
    mine, theirs = _actor(reading), _actor(aligned)
    if _other_party(mine, theirs, quote):
        issues.append(f"actor changed: {_bare(head(mine))} vs {_bare(head(theirs))}")
    mine, theirs = reading.recipient, aligned.recipient
    told = {reading.verb, aligned.verb} <= _REPORTING  # "report to X" for "notify Y"
    if (told or _same_act(reading, aligned)) and _other_recipient(mine, theirs):
        issues.append(f"recipient changed: {_bare(head(mine))} vs {_bare(head(theirs))}")
    if _giver_receives(reading, aligned):
        issues.append(f"recipient changed: {_bare(head(reading.subject))} vs {_bare(head(theirs))}")
    return issues


def _left_out(reading: Reading, aligned: Reading) -> list[str]:
    """ "Only the official has to sign" where the quote binds "you and your official", "only
    the respondent may appeal" where "any party may": the claim names one of the quote's
    parties and excludes the others."""
    subject = reading.subject or ""
    theirs = _actor(aligned) or ""
    if not _ONLY_PARTY.match(subject) or not _actor(reading):
        return []
    mine = frozenset(content_terms(subject))
    if _ANY_PARTY.match(theirs) and not same_party(mine, frozenset(content_terms(theirs))):
        return [f"scope narrowed: {_bare(subject)} vs {theirs}"]  # "only the respondent": any party
    parties = _PARTY_AND.split(theirs)
    named = [p for p in parties if same_party(frozenset(content_terms(p)), mine)]
    if len(parties) < 2 or not named or len(named) == len(parties):
        return []
    return [f"scope narrowed: {_bare(subject)} vs {_bare(theirs)}"]


def _giver_receives(reading: Reading, aligned: Reading) -> bool:
    """The claim has the quote's giver receive what it gives: "the Secretary must receive the
    report from the State" for "the Secretary shall provide the report to the State"."""
    if reading.verb not in RECEIVING or aligned.verb not in TELLING | HANDING:
        return False
    receiver, giver = head_terms(reading.subject), head_terms(_actor(aligned))
    recipient_terms = head_terms(aligned.recipient)
    return bool(receiver and giver and recipient_terms) and (
        same_party(receiver, giver) and not same_party(receiver, recipient_terms)
    )


def _other_recipient(mine: str | None, theirs: str | None) -> bool:
    """The claim addresses the act to a party the quote's recipient phrase does not name:
    "notify each individual" for "notify the covered entity of such breach"."""
    mine_head = head_terms(mine)
    return bool(mine_head and head_terms(theirs)) and not same_party(
        mine_head, frozenset(content_terms(theirs or ""))
    )


def _actor(reading: Reading) -> str | None:
    """Who does the act: the subject of an active reading, the agent of a passive one."""
    return reading.agent if reading.passive else reading.subject


def _same_act(reading: Reading, aligned: Reading) -> bool:
    """The two readings govern the same act: the same verb, or, for a predicative claim whose
    act is a noun ("Authorization is not needed"), that noun in the quote's clause."""
    if reading.verb and reading.verb == aligned.verb:
        return True
    head = aligned.action[:_OBJECT_TERMS]
    return reading.subject is None and reading.passive and reading.verb in head


def _bare(subject: str | None) -> str:
    """A subject without its determiner, for an issue: "covered entity"."""
    return _DETERMINER.sub("", subject or "")


def _aligned(reading: Reading, quote_readings: tuple[Reading, ...]) -> Reading | None:
    """The quote reading about the same action (and, as a tie-break, the same subject)."""
    if not quote_readings:
        return None

    def overlap(candidate: Reading) -> tuple[int, int]:
        action = frozenset(candidate.action)
        shared = sum(matches(t, action) for t in set(reading.action))
        return shared, len(reading.subject_terms & candidate.subject_terms)

    return max(quote_readings, key=overlap)


def _other_party(mine: str | None, theirs: str | None, quote: str) -> bool:
    """The claim names a party where the quote names another: one the quote names in another
    role, a named body ("the Secretary"), a role noun ("the recipient"), or, where both are
    titles of office that share no word, another office-holder ("the chief information security
    officer" for "the senior agency official for privacy")."""
    mine_head, theirs_head = head_terms(mine), head_terms(theirs)
    if not mine_head or not theirs_head or same_party(mine_head, theirs_head):
        return False
    if not (is_party(mine) and is_party(theirs)):  # "the check", "such matters" act for no one
        return False
    named = any(w[0].isupper() for w in (mine or "").split()[1:])
    elsewhere = frozenset(content_terms(quote)) - theirs_head
    titled = bool(mine_head & TITLES and theirs_head & TITLES)
    return (
        named
        or titled
        or bool(mine_head & ROLE_NOUNS)
        or any(matches(t, elsewhere) for t in mine_head)
    )


def _antonyms(case: Case) -> Found:
    """A word whose opposite the quote uses instead ("whichever is earlier" for "later"), in
    any form of the word ("the date it discovers" for "the date of the occurrence")."""
    claim_terms, quote_terms = _word_terms(case.claim), _word_terms(case.quote)
    issues = []
    for a, b, what in _ANTONYMS:
        for mine, theirs in ((a, b), (b, a)):
            said = _uses(term(mine), claim_terms) and not _uses(term(mine), quote_terms)
            if said and _uses(term(theirs), quote_terms):
                issues.append(f"{what}: {mine} vs {theirs}")
    return Found(tuple(issues))


def _uses(word_term: str, terms: frozenset[str]) -> bool:
    """The text of these terms uses the word in some form; a cheap prefix test first, since
    most antonyms are in neither text."""
    prefix = word_term[:_PREFIX]
    return word_term in terms or (prefix in _prefixes(terms) and matches(word_term, terms))


@lru_cache(maxsize=16_384)
def _prefixes(terms: frozenset[str]) -> frozenset[str]:
    return frozenset(t[:_PREFIX] for t in terms)


@lru_cache(maxsize=16_384)
def _word_terms(text: str) -> frozenset[str]:
    """Every word's term, function words included (antonyms are often function words), after
    the lexicon's fixed phrases ("has no effect" is "void")."""
    return frozenset(term(w) for w in _WORDS.findall(phrased(text)))


class Check(NamedTuple):
    """One check of the verdict, as the ablation and the tests name it: `finds` reads the case
    and returns what it found, and a finding gives `verdict` with `reason` filled with the
    finding's words."""

    name: str
    finds: Callable[[Case], Found]
    verdict: str
    reason: str


# The verdict, in the order the checks decide it (the module docstring, _decision): the topic,
# another party's rule, the conflicts (one CONTRADICTED naming each: they share a reason),
# inventions, omissions.
CHECKS: tuple[Check, ...] = (
    Check("off-topic claim", _off_topic, UNSUPPORTED, _OFF_TOPIC_REASON),
    Check("another party's rule", _other_partys_rule, UNSUPPORTED, _OTHER_PARTY_REASON),
    Check("number conflicts", _number_conflicts, CONTRADICTED, _CONFLICT_REASON),
    Check("parties left out", _parties_left_out, CONTRADICTED, _CONFLICT_REASON),
    Check("denied right (correlatives)", _denied_rights, CONTRADICTED, _CONFLICT_REASON),
    Check("modality conflicts", _modality_conflicts, CONTRADICTED, _CONFLICT_REASON),
    Check("party conflicts", _party_conflicts, CONTRADICTED, _CONFLICT_REASON),
    Check("substituted parties", _substituted_parties, CONTRADICTED, _CONFLICT_REASON),
    Check("antonyms", _antonyms, CONTRADICTED, _CONFLICT_REASON),
    Check("denied limits", _denied_limits, CONTRADICTED, _CONFLICT_REASON),
    Check("excluded by 'only ... not'", _excluded, CONTRADICTED, _CONFLICT_REASON),
    Check("required where waived", _required_where_waived, CONTRADICTED, _CONFLICT_REASON),
    Check("delayed moment", _delayed_moment, CONTRADICTED, _CONFLICT_REASON),
    Check("frequency differs", _other_frequency, CONTRADICTED, _CONFLICT_REASON),
    Check("undone acts", _undone_acts, UNSUPPORTED, _OPPOSITE_ACT_REASON),
    Check("invented frequency", _invented_frequency, UNSUPPORTED, _NO_FREQUENCY_REASON),
    Check("invented restriction", _invented_restriction, UNSUPPORTED, _NO_RESTRICTION_REASON),
    Check("invented numbers", _invented_numbers, UNSUPPORTED, _NO_NUMBER_REASON),
    Check("partial (dropped qualifiers, broadened scope)", _omissions, PARTIAL, _DROPPED_REASON),
)
