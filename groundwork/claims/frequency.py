"""How often a rule recurs: "annually", "every three years", "twice a year", "once per quarter".

A frequency is not a deadline: "re-certify annually" sets a period of a year between acts, and
"within 60 days" sets none. groundwork.text.numbers reads "three years" as a duration, which would
leave "every three years" for "annually" an invented number; read as periods, the two are one
fact stated two ways, and they conflict. A frequency in a claim where the quote sets none is an
invented detail (`frequency`); one whose period differs from every period the quote sets, or is
bounded the other way, is a conflict (`other_period`); one the quote sets too, in any words,
restates it (`restated`).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import NamedTuple

from groundwork.text.numbers import word_value

# Days per unit, near enough to tell one frequency from another (not to count dates).
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "quarter": 91, "year": 365}
_ADVERBS = {
    "daily": 1,
    "weekly": 7,
    "monthly": 30,
    "quarterly": 91,
    "semiannual": 182,
    "semiannually": 182,
    "annual": 365,
    "annually": 365,
    "yearly": 365,
    "biennial": 730,
    "biennially": 730,
}
_UNIT = r"(?P<unit>day|week|month|quarter|year)s?"
_PERIOD = re.compile(
    r"\b(?:(?P<adverb>semi-?annual(?:ly)?|annual(?:ly)?|yearly|monthly|weekly|daily|quarterly"
    r"|biennial(?:ly)?)"
    rf"|(?:once\s+)?(?:every|each|per)\s+(?:(?P<count>\d+|[a-z]+)\s+)?{_UNIT}"
    r"|(?P<times>once|twice|thrice|(?:\d+|[a-z]+)\s+times)\s+(?:a|an|per|each|every)\s+"
    r"(?:calendar\s+|fiscal\s+)?(?P<per>day|week|month|quarter|year))\b",
    re.IGNORECASE,
)
# Any frequency, periods and "two days a week" alike: what `frequency` looks for.
_FREQUENCY = re.compile(
    r"\b(?:annual(?:ly)?|yearly|monthly|weekly|daily|quarterly|biennial(?:ly)?"
    r"|(?:(?:once|twice)\s+(?:a|per|each|every)|every|each|per|during\s+a|in\s+a"
    r"|(?:times?|days?|hours?|weeks?|months?)\s+an?)\s+"
    r"(?:\w+\s+)?(?:year|month|week|day|quarter|period)s?)\b",
    re.IGNORECASE,
)
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_MOST, _LEAST = "most", "least"  # the period is at most / at least the one stated
_BOUND = re.compile(
    r"\b(at\s+least|no\s+less\s+often\s+than|not\s+less\s+(?:often|frequently)\s+than"
    r"|at\s+most|no\s+more\s+(?:often|frequently)\s+than|not\s+more\s+(?:often|frequently)\s+than)"
    r"\s+$",
    re.IGNORECASE,
)
_SAME = Fraction(1, 20)  # periods within 5 % are one: "every 12 months" is "annually"


def frequency(text: str) -> str | None:
    """The first frequency a text states, as written, or None."""
    found = _FREQUENCY.search(text)
    return found.group(0) if found else None


class Period(NamedTuple):
    """A recurring period as written, where, and in days; `bound` says which way the text
    allows it to move: "at least once every 12 months" is a longest period ("most"), "not
    more frequently than once every 12 months" a shortest ("least"), a plain one neither."""

    surface: str
    start: int
    end: int
    days: Fraction
    bound: str | None


def periods(text: str) -> tuple[Period, ...]:
    """Each recurring period the text sets: "every three years" is 1095 days, "twice a year"
    182.5, "quarterly" 91."""
    found = []
    for match in _PERIOD.finditer(text):
        days = _days(match)
        if days:
            lead = _BOUND.search(text, max(0, match.start() - 40), match.start())
            bound = _bound_of(" ".join(lead.group(1).lower().split())) if lead else None
            found.append(Period(match.group(0), match.start(), match.end(), days, bound))
    return tuple(found)


def other_period(claim: str, quote: str) -> tuple[str, str] | None:
    """The claim's period and the quote's where the claim sets one that none of the quote's
    periods is: "every three years" for "annually". None if either sets no period."""
    quote_periods = periods(quote)
    if not quote_periods:
        return None
    for period in periods(claim):
        same = [theirs for theirs in quote_periods if _same(period, theirs)]
        if not same:
            return period.surface, quote_periods[0].surface
        bounded = [t for t in same if t.bound and period.bound and t.bound != period.bound]
        if bounded and len(bounded) == len(same):
            return _bounded(period), _bounded(bounded[0])
    return None


def restated(text: str, other: str) -> tuple[Period, ...]:
    """The text's periods that the other text sets too, in any words: "once every 12 months"
    restated as "once a year", whose "12 months" the other text then need not repeat, nor
    state as a number of its own."""
    other_periods = periods(other)
    return tuple(p for p in periods(text) if any(_same(o, p) for o in other_periods))


def without_periods(text: str) -> str:
    """The text with its periods blanked: the "every" of "every three years" widens no rule."""
    for period in periods(text):
        text = text[: period.start] + " " * len(period.surface) + text[period.end :]
    return text


def _bounded(period: Period) -> str:
    words = "at least" if period.bound == _MOST else "not more often than"
    return f"{words} {period.surface}"


def _same(mine: Period, theirs: Period) -> bool:
    return abs(mine.days - theirs.days) <= _SAME * theirs.days


def _bound_of(words: str) -> str:
    return _MOST if words.startswith(("at least", "no less", "not less")) else _LEAST


def _days(match: re.Match[str]) -> Fraction | None:
    adverb = match.group("adverb")
    if adverb:
        return Fraction(_ADVERBS[adverb.lower().replace("-", "")])
    if match.group("per"):
        times = match.group("times").lower()
        count = _TIMES.get(times) or _count(times.rsplit(None, 1)[0])
        return Fraction(_UNIT_DAYS[match.group("per").lower()], count) if count else None
    count = (match.group("count") or "").lower()  # "every fiscal year" counts one
    number = 2 if count == "other" else (_count(count) or 1) if count else 1
    return Fraction(_UNIT_DAYS[match.group("unit").lower()] * number)


def _count(text: str) -> int | None:
    """A count written in digits or words, or None for what is neither."""
    text = text.strip().replace(",", "")
    if text.isdigit():
        return int(text)
    return word_value(text) or None
