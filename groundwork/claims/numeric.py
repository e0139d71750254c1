"""Does each number of a claim stand in its quote? Matched, derived, or not there.

Numbers are the facts an answer most often gets wrong (60 days for 30, 500 or more for more than
500), so each one is compared by value (groundwork.text.numbers), not by wording:

* **matched**: the quote states the same kind of number with the same value (within the
  relative tolerance) in the same unit: "sixty (60) days" and "60 calendar days", "$1.5 million"
  and "$1,500,000", "half" and "50 percent".
* **derived**: the claim's value follows from the quote's by one step an auditor would accept:
  a unit conversion (2 weeks = 14 days, 1 year = 12 months, 1 year = 365 days, 1 day = 24 hours),
  or the sum, difference, product or ratio of two of the quote's numbers. The step is kept as
  `calculation`, its operands as `inputs`.
* **unmatched**: neither. Whether that contradicts the quote (it states a different number of
  that kind) or is merely unsupported (it states none) is the verdict's call.

A value that matches but under a different bound ("500 or more" for "more than 500", a floor
"not less than $1,000" for a cap) is reported as a bound conflict, because the rule differs at
the boundary. Bounds are read from the qualifier numbers.py records, flipped under a negation
("cannot run for more than a year" is a cap).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from groundwork.claims.lexicon import content_terms, matches
from groundwork.text.numbers import Mention, mentions

MATCHED, DERIVED, UNMATCHED = "matched", "derived", "unmatched"

# Exact conversions between time units, as (from, to): factor; they chain (1 week = 168 hours).
_CONVERSIONS = {
    ("minute", "second"): Fraction(60),
    ("hour", "minute"): Fraction(60),
    ("day", "hour"): Fraction(24),
    ("week", "day"): Fraction(7),
    ("year", "month"): Fraction(12),
}
# The calendar year, one step only: chained it would make a month 30.42 days.
_CALENDAR = {("year", "day"): Fraction(365), ("day", "year"): Fraction(1, 365)}
# Bounds: which side of the value the rule allows, and whether the value itself is in.
_LOWER_IN = ("at least", "not less than", "no less than", "a minimum of", "or more",
             "or greater", "no earlier than", "not earlier than", "on or after", "beginning",
             "starting")  # fmt: skip
_LOWER_OUT = ("more than", "greater than", "over", "in excess of", "exceeding", "exceed", "after",
              "longer than")  # fmt: skip
_UPPER_IN = ("not more than", "no more than", "up to", "not to exceed", "not exceeding",
             "not exceed", "at most", "a maximum of", "within", "no later than", "not later than",
             "in no case later than",
             "no longer than", "not longer than", "or less", "or fewer", "on or before", "by",
             "until")  # fmt: skip
_UPPER_OUT = ("less than", "fewer than", "before", "prior to")
_BOUNDS = {
    **dict.fromkeys(_LOWER_IN, ("lower", True)),
    **dict.fromkeys(_LOWER_OUT, ("lower", False)),
    **dict.fromkeys(_UPPER_IN, ("upper", True)),
    **dict.fromkeys(_UPPER_OUT, ("upper", False)),
}
_FLIPPED = {  # a negated bound is the other side, inclusion swapped ("may not be less than 14")
    ("lower", False): ("upper", True),
    ("lower", True): ("upper", False),
    ("upper", False): ("lower", True),
    ("upper", True): ("lower", False),
}
_CONTEXT_WORDS = 2  # words before a number that say what it measures ("the initial 30 days")
_ANCHOR_WORDS = ("after", "before", "from", "prior to", "beginning", "starting")
_NEGATION_BEFORE = re.compile(r"\b(?:not|no|never|cannot|can't|nor)\b[^,;:.]{0,60}$", re.IGNORECASE)
_AFTER_BOUND = re.compile(r"\s*(?:or\s+(?:more|less|fewer|greater)|or\s+longer)\b", re.IGNORECASE)
_INNER_BOUND = re.compile(r"\bor\s+(?:more|less|fewer|greater)\b", re.IGNORECASE)
# The event a period runs from, up to the clause's end or a word that opens another clause
# ("5 days after its date unless it rebuts ...": the anchor is "after its date").
_ANCHOR = re.compile(
    r"\s+(?:period\s+)?(?:after|from|of|following|beginning\s+on|since|starting)\b"
    r"(?:(?!\s(?:unless|except|if|provided)\b)[^,;:.()])*",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class NumberMatch:
    """How one number of a claim stands against the quote it cites."""

    surface: str
    kind: str
    value: Decimal | None
    unit: str
    status: str
    quote_surface: str | None = None
    inputs: tuple[str, ...] = ()
    calculation: str | None = None


VALUE, UNIT, BOUND, ANCHOR = "value", "unit", "bound", "anchor"


@dataclass(frozen=True, slots=True)
class NumberConflict:
    """A claim number that disagrees with a quote number of the same kind: in `what`, a
    different value, the same value in a unit that does not convert (5 business days vs 5 days),
    the same value under another bound (500 or more vs more than 500), or a period counted from
    another event (after the order is entered vs after receipt of the request)."""

    claim: str
    quote: str
    kind: str
    what: str


def number_matches(
    claim: str, quote: str, tolerance: float
) -> tuple[tuple[NumberMatch, ...], tuple[NumberConflict, ...], tuple[Mention, ...]]:
    """Each claim number's match, the conflicts among them, and the quote numbers no claim
    number used (a deadline or threshold the claim may have dropped). A value the quote repeats
    ("extend the initial 30 day period ... if filed within the initial 30 day period") is
    stated once a claim number matches one of its mentions and the claim refers back to the
    other in words ("within the initial period")."""
    quote_numbers = _numbers(quote)
    used: set[int] = set()
    found: list[NumberMatch] = []
    conflicts: list[NumberConflict] = []
    for number in _numbers(claim):
        match, sources = _matched(number, _unused_first(quote_numbers, used), tolerance)
        if match.status == UNMATCHED:
            rival = _rival(number, quote_numbers)
            if rival is not None:
                what = UNIT if rival.value == number.value else VALUE
                conflicts.append(NumberConflict(number.surface, rival.surface, number.kind, what))
        elif len(sources) == 1 and _bounds_differ(claim, number, quote, sources[0]):
            conflicts.append(
                NumberConflict(
                    bounded(claim, number), bounded(quote, sources[0]), number.kind, BOUND
                )
            )
        elif len(sources) == 1 and _anchors_differ(claim, number, quote, sources[0]):
            claim_anchor, quote_anchor = anchor(claim, number), anchor(quote, sources[0])
            conflicts.append(NumberConflict(claim_anchor, quote_anchor, number.kind, ANCHOR))
        used.update(id(s) for s in sources)
        found.append(match)
    stated = {q.key for q in quote_numbers if id(q) in used}
    unused = tuple(
        q
        for q in quote_numbers
        if id(q) not in used and not (q.key in stated and _referred_to(q, quote, claim))
    )
    return tuple(found), tuple(conflicts), unused


def _referred_to(number: Mention, quote: str, claim: str) -> bool:
    """The claim names, without its figure, the thing a quote number measures: "within the
    initial period" for "within the initial 30 day period", by the words just around it."""
    before = quote[: number.start].split()[-_CONTEXT_WORDS:]
    after = quote[number.end :].split()[:1]
    context = content_terms(" ".join(before + after))
    claim_terms = frozenset(content_terms(claim))
    return bool(context) and all(matches(t, claim_terms) for t in context)


def _unused_first(quote_numbers: tuple[Mention, ...], used: set[int]) -> tuple[Mention, ...]:
    """The quote's numbers with those no claim number matched yet first: a value the quote
    states twice ("reviewed in 3-5 business days, credited 3-5 business days after approval")
    is matched twice by a claim that restates it twice, and neither is reported dropped."""
    return tuple(sorted(quote_numbers, key=lambda q: id(q) in used))


@lru_cache(maxsize=8_192)
def _numbers(text: str) -> tuple[Mention, ...]:
    """The numbers of a text (cached: a quote is checked against every claim that cites it)."""
    return tuple(mentions(text))


def _matched(
    number: Mention, quote_numbers: tuple[Mention, ...], tolerance: float
) -> tuple[NumberMatch, tuple[Mention, ...]]:
    """The first of: the same value, a converted value, a value computed from two."""
    base = NumberMatch(number.surface, number.kind, number.value, number.unit, UNMATCHED)
    same_kind = [q for q in quote_numbers if q.kind == number.kind]
    for quote_number in same_kind:
        if _same_date(number, quote_number) or (
            number.kind != "date"
            and _unit_class(number) == _unit_class(quote_number)
            and _close(number.value, quote_number.value, tolerance)
        ):
            return _with(base, MATCHED, quote_number.surface, (quote_number.surface,)), (
                quote_number,
            )
    for quote_number in (q for q in same_kind if q.value is not None):  # dates have none
        factor = _factor(quote_number.unit, number.unit)
        if factor is not None and _close(number.value, quote_number.value * factor, tolerance):
            calculation = f"{quote_number.surface} = {number.surface}"
            return _with(
                base, DERIVED, quote_number.surface, (quote_number.surface,), calculation
            ), (quote_number,)
    derived = _computed(number, quote_numbers, tolerance)
    if derived is not None:
        (a, b), calculation = derived
        return _with(base, DERIVED, None, (a.surface, b.surface), calculation), (a, b)
    return base, ()


def _with(
    base: NumberMatch,
    status: str,
    quote_surface: str | None,
    inputs: tuple[str, ...],
    calculation: str | None = None,
) -> NumberMatch:
    return NumberMatch(
        base.surface, base.kind, base.value, base.unit, status, quote_surface, inputs, calculation
    )


def _computed(
    number: Mention, quote_numbers: tuple[Mention, ...], tolerance: float
) -> tuple[tuple[Mention, Mention], str] | None:
    """Two quote numbers whose sum, difference, product or ratio is the claim's value. Sums,
    differences and plain ratios need the claim's kind and unit on both; a product needs them on
    one operand (`_scales`); a percentage may be the ratio of any two values."""
    if number.value is None:
        return None
    valued = [q for q in quote_numbers if q.value is not None]
    for a, b in itertools.permutations(valued, 2):
        for value, sign in _results(number, a, b):
            if _close(number.value, value, tolerance):
                tail = " × 100" if sign == "÷" and number.kind == "percentage" else ""
                return (a, b), f"{a.surface} {sign} {b.surface}{tail} = {number.surface}"
    return None


def _results(number: Mention, a: Mention, b: Mention) -> list[tuple[Decimal, str]]:
    """What a and b (in this order) can give a number of the claim's kind and unit."""
    like = a.kind == b.kind == number.kind and _unit_class(a) == _unit_class(b)
    like = like and _unit_class(a) == _unit_class(number)
    results = []
    if like:
        results += [(a.value + b.value, "+"), (a.value - b.value, "-")]
    if _scales(number, a, b):
        results.append((a.value * b.value, "×"))
    if b.value and (like or number.kind == "percentage"):
        ratio = a.value / b.value
        results.append((ratio * 100 if number.kind == "percentage" else ratio, "÷"))
    return results


def _scales(number: Mention, a: Mention, b: Mention) -> bool:
    """a × b can give the claim's number: one operand is of its kind and unit ($100 per
    violation × 10 violations; 14 business days times anything stays business days), and
    neither is one (times one is no calculation, only the other operand restated)."""
    if number.kind == "percentage" or Decimal(1) in (a.value, b.value):
        return False
    return any(o.kind == number.kind and _unit_class(o) == _unit_class(number) for o in (a, b))


def _rival(number: Mention, quote_numbers: tuple[Mention, ...]) -> Mention | None:
    """The quote number an unmatched claim number stands against: one of the same kind (for a
    duration, the same or a convertible unit first)."""
    same_kind = [q for q in quote_numbers if q.kind == number.kind]
    same_unit = [q for q in same_kind if q.unit == number.unit]
    comparable = [q for q in same_kind if _factor(q.unit, number.unit) is not None]
    return (same_unit or comparable or same_kind or [None])[0]


def _same_date(a: Mention, b: Mention) -> bool:
    """Dates agree when their ISO forms do, or one omits the year ("--03-31")."""
    if a.kind != "date" or b.kind != "date":
        return False
    return a.normalised == b.normalised or (
        a.normalised[-6:] == b.normalised[-6:] and "--" in (a.normalised[:2], b.normalised[:2])
    )


def _unit_class(number: Mention) -> str:
    """What a value is measured in: a count's noun does not matter, a duration's unit does."""
    return "" if number.kind in ("count", "percentage") else number.unit


def _factor(source: str, target: str) -> Decimal | None:
    """How many targets make one source unit (None if the units do not convert)."""
    if source == target:
        return Decimal(1)
    if (source, target) in _CALENDAR:
        factor = _CALENDAR[source, target]
        return Decimal(factor.numerator) / Decimal(factor.denominator)
    graph = {**_CONVERSIONS, **{(b, a): 1 / f for (a, b), f in _CONVERSIONS.items()}}
    frontier, seen = [(source, Fraction(1))], {source}
    while frontier:
        unit, factor = frontier.pop()
        for (a, b), step in graph.items():
            if a == unit and b not in seen:
                if b == target:
                    total = factor * step
                    return Decimal(total.numerator) / Decimal(total.denominator)
                seen.add(b)
                frontier.append((b, factor * step))
    return None


def _close(a: Decimal | None, b: Decimal | None, tolerance: float) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= Decimal(str(tolerance)) * max(abs(a), abs(b))


def bound(text: str, number: Mention) -> tuple[str, bool] | None:
    """Which side of the number a text allows: ("upper", True) for "within 60 days", ("lower",
    False) for "more than 500"; flipped under a negation ("may not grant ... for more than 5
    days" is a cap). A date after "after", "before" or "from" anchors a period ("18 months
    after February 17, 2009"); it bounds nothing."""
    after = _AFTER_BOUND.match(text, number.end) or _INNER_BOUND.search(number.surface)
    qualifier = number.qualifier
    if number.kind == "date" and qualifier in _ANCHOR_WORDS:
        return None
    if after:
        qualifier = " ".join(after.group(0).split())
    side = _BOUNDS.get(qualifier or "")
    if side is None:
        return None
    lead = text[max(0, number.start - 80) : number.start]
    lead = lead[: len(lead) - len(number.qualifier or "") - 1] if number.qualifier else lead
    if side in _FLIPPED and not after and _NEGATION_BEFORE.search(lead):
        return _FLIPPED[side]
    return side


def _bounds_differ(claim: str, number: Mention, quote: str, quote_number: Mention) -> bool:
    """Both texts bound the value and do so differently (side or inclusion)."""
    claim_bound, quote_bound = bound(claim, number), bound(quote, quote_number)
    return claim_bound is not None and quote_bound is not None and claim_bound != quote_bound


def anchor(text: str, number: Mention) -> str:
    """What a period is counted from: "after discovery of a breach" in "60 days after discovery
    of a breach" (empty when the text does not say)."""
    found = _ANCHOR.match(text, number.end)
    return found.group(0).strip() if found else ""


def _anchors_differ(claim: str, number: Mention, quote: str, quote_number: Mention) -> bool:
    """Both texts count the period from an event, and the claim's event is another one: it
    shares no term with the quote's, or half its terms are nowhere in the quote ("after the
    Secretary notifies the person" for "beginning on the date the person knew"). A modifier the
    claim adds ("an oral or written request") is left to the other checks."""
    if number.kind != "duration":
        return False
    mine, theirs = anchor(claim, number), anchor(quote, quote_number)
    claim_terms = set(content_terms(mine))
    if not claim_terms or not theirs:
        return False
    anchor_terms = frozenset(content_terms(theirs))
    quote_terms = frozenset(content_terms(quote))
    shared = sum(matches(t, anchor_terms) for t in claim_terms)
    foreign = sum(not matches(t, quote_terms) for t in claim_terms)
    return shared == 0 or foreign > len(claim_terms) / 2


def bounded(text: str, number: Mention) -> str:
    """The number with its bound words, for an issue: "more than 500 residents"."""
    after = _AFTER_BOUND.match(text, number.end)
    surface = number.surface + (after.group(0) if after else "")
    if after or _INNER_BOUND.search(surface) or not number.qualifier:
        return surface
    return f"{number.qualifier} {surface}"
