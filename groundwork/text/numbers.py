"""Numbers in legal text: amounts, percentages, counts, durations and dates, each normalised.

A compliance answer is only as good as its figures, so the report shows where each one comes
from and claim verification compares them by value (`Mention.key`), whatever their wording:
"sixty (60) days" and "60 days" are both P60D. What this module must *not* report matters as
much: section, paragraph and citation numbers (§ 164.404, 45 CFR 164.512(f)(1), 42 U.S.C.
290dd-2, (b)(2), "section 33.13"), list labels, document identifiers (NIST SP 800-53, AC-2(3),
Public Law 104-191) and the years in act names are references, not quantities.

How: references are found first and fenced off, spelled ones ("article twenty-eight") too.
Then the patterns of amounts, percentages, dates and durations, which carry their own unit and
so may cross an identifier-looking token ("30-day", "$3.2B", "2024-01-01"), and last bare
counts, which must avoid every fence. Statutes write many figures in words, so words count as
much as digits: "seventy-five cents", "age of twelve", "within an hour" (an article is a number
only after a bound), "two or more consumers", "one such extension", "at least once", and the
relative dates of worked examples ("December 31 of year 2"). The pronoun "one" ("the one
claimed") and the conjunction "once" ("Once the order expires") are not numbers.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from groundwork.text.terms import STOPWORDS

KINDS = ("amount", "percentage", "count", "duration", "date")


@dataclass(frozen=True)
class Mention:
    """One number in a text: where it is, what it is, and its value in a comparable form.

    `value` is the quantity in `unit`s (None for dates, whose value is the ISO `normalised`);
    `normalised` is ISO 8601 for durations (P60D) and dates (2024-01-01, --03-31 without a
    year), `3200000000 USD` for amounts, `25%` for percentages and the bare integer for counts.
    `steps` runs from the surface to the normalised form, for showing what was done to it.
    """

    start: int
    end: int
    surface: str
    kind: str
    value: Decimal | None
    unit: str
    normalised: str
    qualifier: str | None = None
    steps: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str, str]:
        """What two mentions must share to state the same number. A count's noun varies with
        wording ("500 individuals", "500 or more of them"), so it is left out; a duration's unit
        is kept because 5 business days are not P5D of calendar time."""
        return (self.kind, "" if self.kind == "count" else self.unit, self.normalised)

    @property
    def transformation(self) -> str:
        """The steps from the text to the normalised value, or `none` when it is written so."""
        return " → ".join(self.steps) if len(self.steps) > 1 else "none"


# --- number words ---------------------------------------------------------------------------

_UNITS = {
    w: i
    for i, w in enumerate((
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen",
    ))
}  # fmt: skip
_TENS = {
    w: 10 * (i + 2)
    for i, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                           "ninety"))
}  # fmt: skip
_SCALES = {
    "hundred": 100,
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "trillion": 1_000_000_000_000,
}
_MULTIPLIERS = {
    **{k: v for k, v in _SCALES.items() if k != "hundred"},
    "k": 1_000,
    "m": 1_000_000,
    "mn": 1_000_000,
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
}

_SMALL = "|".join(sorted(_UNITS, key=len, reverse=True))
_TEN = "|".join(_TENS)
_WORD_TERM = rf"(?:(?:{_TEN})(?:[\s-](?:{_SMALL}))?|{_SMALL})\b"
# e.g. "twenty-four", "one hundred and twenty", "two thousand five hundred"
WORD_NUMBER = (
    rf"\b{_WORD_TERM}(?:[\s-]+(?:hundred|thousand)\b(?:[\s-]+(?:and[\s-]+)?{_WORD_TERM})?)*"
)
# 1,000,000 and, as ADGM and the EU write it, 1 000 000 (a space or a no-break space)
DIGITS = r"\d{1,3}(?:(?:,|[ \u00a0\u202f](?=\d{3}\b))\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORD_MULT = r"\s?(?:thousand|million|billion|trillion|bn|mn)\b"
_MULT = rf"(?:{_WORD_MULT}|[kKmMbB]\b)"  # $3.2B; a bare 3B is a label, so counts take words only


# First letters of the number words: a cheap test that spares the long alternation at most
# positions of a text.
_INITIALS = "".join(sorted({w[0] + w[0].upper() for w in (*_UNITS, *_TENS)}))


def number_pattern(tag: str) -> str:
    """A number as contracts write it: digits (with a multiplier), words, or words with the
    digits in brackets. Group names end in `tag`, so one pattern may hold it twice."""
    return (
        rf"(?=[\d{_INITIALS}])(?:"
        rf"(?P<words{tag}>{WORD_NUMBER})\s*\(\s*(?P<bracketed{tag}>{DIGITS})\s*\)"
        rf"|(?<![\w.,])(?P<digits{tag}>{DIGITS})(?P<mult{tag}>{_MULT})?"
        rf"|(?P<word{tag}>{WORD_NUMBER})(?P<wmult{tag}>\s(?:million|billion|trillion)\b)?)"
    )


NUMBER = number_pattern("")


def word_value(text: str) -> int:
    """The value of number words: "one hundred and twenty" is 120."""
    total, current = 0, 0
    for word in re.split(r"[\s-]+", text.lower()):
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0
    return total + current


def _plain(value: Decimal) -> str:
    """A decimal without exponent or trailing zeros: 3200000000, 2.5."""
    return format(value.normalize(), "f")


def _grouped(value: Decimal) -> str:
    """A decimal with thousands separators: 3,200,000,000."""
    whole, _, frac = _plain(value).partition(".")
    return f"{int(whole):,}" + (f".{frac}" if frac else "")


def _decimal(digits: str) -> Decimal:
    """Written digits as a number: 1,000,000 and 1 000 000 are 1000000."""
    return Decimal(re.sub(r"[, \u00a0\u202f]", "", digits))


@dataclass(frozen=True)
class _Number:
    value: Decimal
    spelled: bool  # written in words, with a multiplier or with bracketed digits


def _number(match: re.Match[str]) -> _Number:
    """The value of a number_pattern match, whichever of its tags (1, 2 or none) matched."""
    g = {k.rstrip("12"): v for k, v in match.groupdict().items() if v is not None}
    if "bracketed" in g:
        return _Number(_decimal(g["bracketed"]), True)
    if "digits" in g:
        value = _decimal(g["digits"])
        mult = g.get("mult", "").strip()
        if mult:
            return _Number(_exact(value * _MULTIPLIERS[mult.lower()]), True)
        return _Number(value, False)
    value = Decimal(word_value(g["word"]))
    if "wmult" in g:
        value *= _MULTIPLIERS[g["wmult"].strip().lower()]
    return _Number(value, True)


def _exact(value: Decimal) -> Decimal:
    """3.2 x 10^9 as 3200000000, not 3200000000.0 (equal, but shown as written)."""
    return Decimal(_plain(value))


# --- references: what is never a quantity --------------------------------------------------

_SPACE = r"[\s\u200b-\u200f\u2060\ufeff]"  # with the invisible marks PDFs and Word leave
_REF_ATOM = r"(?:\d[\w.\-–/]*|[A-Z]{1,3}[.\-–]?\d[\w.\-–/]*|\([\w.]+\))(?:\([\w.]+\))*"
_REF_TAIL = (
    rf"{_SPACE}*(?:§+{_SPACE}*)?{_REF_ATOM}"
    rf"(?:{_SPACE}*(?:,|and|or|through|thru|to|-|–|&){_SPACE}*(?:§+{_SPACE}*)?{_REF_ATOM})*"
)
_REF_WORD_LIST = (
    *(
        r"sections?",
        r"secs?\.",
        r"s(?<![’']s)s?\.?",
        r"paragraphs?",
        r"paras?\.",
        r"subparagraphs?",
    ),
    *(r"subsections?", r"sub-sections?", r"clauses?", r"sub-?clauses?", r"articles?", r"arts?\."),
    *(r"chapters?", r"ch\.", r"parts?", r"subparts?", r"titles?", r"subtitles?", r"subchapters?"),
    *(r"rules?", r"regulations?", r"schedules?", r"appendix", r"appendices", r"annex(?:es)?"),
    *(r"exhibits?", r"items?", r"forms?", r"steps?", r"phases?", r"levels?", r"tiers?"),
    *(r"versions?", r"v\.", r"rev\.", r"revisions?", r"no\.", r"nos\.", r"numbers?", r"pages?"),
    *(r"pp?\.", r"footnotes?", r"notes?", r"tables?", r"figures?", r"figs?\.", r"volumes?"),
    *(r"vols?\.", r"divisions?", r"public\s+laws?", r"pub\.\s*l\.", r"p\.\s*l\."),
    *(r"executive\s+orders?", r"e\.\s*o\.", r"orders?", r"circulars?", r"bulletins?"),
    *(r"directives?", r"standards?", r"principles?", r"controls?", r"pillars?"),
)


def _by_initial(alternatives: tuple[str, ...]) -> str:
    """The alternatives grouped by their (case-folded) first letter, order kept within a group.

    The regex engine tries an alternation branch by branch at every position; grouping lets it
    reject most positions on one character, which makes reference fencing several times faster.
    """
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        groups.setdefault(alternative[0].lower(), []).append(alternative[1:])
    return "|".join(
        f"[{initial}{initial.upper()}](?:{'|'.join(rests)})" for initial, rests in groups.items()
    )


_REF_WORDS = rf"§+|{_by_initial(_REF_WORD_LIST)}"
_CODES = r"CFR|C\.F\.R\.|U\.S\.C\.?|USC|FR|Fed\.\s?Reg\.|Stat\.|U\.S\.|S\.\s?Ct\.|L\.\s?Ed\."
_CURRENCY_CODES = ("USD", "EUR", "GBP", "AED", "CHF", "JPY", "CAD", "AUD")
_REFERENCES = re.compile(
    # section 33.13, § 164.404, paragraph (b)(2), Public Law 104-191
    rf"(?:\b|(?=§))(?:{_REF_WORDS})(?={_SPACE}|[(§\d])(?:{_REF_TAIL})"
    rf"|\b\d+\s+(?:{_CODES})(?:{_REF_TAIL})?"  # 45 CFR 164.512(f)(1), 78 FR 5693
    rf"|(?-i:\b(?!(?:{'|'.join(_CURRENCY_CODES)})\b)[A-Z][A-Z&]{{1,7}}{_REF_TAIL})",  # SP 800-53
    re.IGNORECASE,
)
# Rarer references, each searched only when a cheap test says it may be there.
_GATED_REFERENCES = (
    (
        re.compile(r"\b(?:1[6-9]|20)\d\d\b"),
        re.compile(  # HIPAA Act of 1996, Data Protection Act 2018
            r"\b(?:Act|Code|Law|Laws|Regulations|Rules|Ordinance|Amendments|Statute)"
            r"(?:\s+of)?,?\s+(?:1[6-9]|20)\d\d\b",
            re.IGNORECASE,
        ),
    ),
    (
        re.compile(r"://|www\.|@|\]\("),
        re.compile(r"https?://\S+|\bwww\.\S+|\S+@\S+\.\w+|\]\(#?[^)\s]*\)", re.IGNORECASE),
    ),
)
# Tokens that mix digits with letters, hyphens, slashes, colons or several dots: AC-2(3),
# 290dd-2, 2016/679, 1.1.1, 10-K, 5:00. They block bare counts, not numbers with a unit.
_TOKENS = re.compile(r"(?P<token>[\w.\-–/:]+)(?:\([\w.]+\))*")
_IDENTIFIER_MARK = re.compile(r"\d[A-Za-z]|[A-Za-z]\d|\d[\-–/:]\w|\w[\-–/:]\d|\d\.\d+\.\d")
# A capitalised word inside a sentence followed by a number names a thing: "the Pillar 2
# review", "under Schedule 1". Sentence-initial words ("Approximately 500") are not fenced.
_NAMED = re.compile(
    r"(?<=[a-z,;:(]\s)(?!(?:The|A|An|Over|About|Approximately|Up)\b)[A-Z][a-z]+\s\d+\b"
)
# Ordinals written as labels: "by December 31 of year 2", "day 1", "class 3".
_ORDINALS = re.compile(
    r"\b(?:year|day|month|week|quarter|class|category|type|group|grade|round|stage|zone)"
    r"\s+\d+\b",
    re.IGNORECASE,
)
_MULTIPLIED = re.compile(r"\d+(?:\.\d+)?(?:[kKmMbB]|bn|mn)")  # 1.5M is a number, not an ID
# Labels: (2), (b)(2), (iv), and list numbers that open a line or follow a sentence ("1. ").
_LABELS = re.compile(
    r"(?:\(\s*(?:\d+[A-Za-z]?|[A-Za-z]{1,2}|[ivxlcdm]+)\s*\))+"
    r"|^[ \t>#*\-]*\d+[.)](?=\s)"
    r"|(?<=[.:;]\s)\d+[.)](?=\s+[A-Z(“\"])",
    re.MULTILINE,
)
# New York and D.C. statutes spell their references out: "article twenty-eight", "section
# three hundred eighty-four-a", "articles twenty-three, thirty-one and forty-five".
_SPELLED_REFERENCE = rf"(?:{WORD_NUMBER})(?:-[a-z]\b)?"
_SPELLED_REFERENCES = re.compile(
    r"\b(?:sections?|articles?|subdivisions?|paragraphs?|subparagraphs?|clauses?|titles?"
    r"|chapters?|parts?|schedules?|items?|rules?)\s+"
    rf"{_SPELLED_REFERENCE}(?:\s*(?:,|\band\b|\bor\b)\s*{_SPELLED_REFERENCE})*",
    re.IGNORECASE,
)
_CITATION_LEAD = re.compile(r"\s*(?:,|\bof|\bdated)\s*$", re.IGNORECASE)

# --- quantities ---------------------------------------------------------------------------

_CURRENCY = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD",
    "us dollars": "USD", "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "pounds sterling": "GBP",
    "aed": "AED", "dirham": "AED", "dirhams": "AED", "chf": "CHF", "jpy": "JPY",
    "cad": "CAD", "aud": "AUD",
}  # fmt: skip
_PRE_CURRENCY = r"US\$|\$|€|£|(?:USD|EUR|GBP|AED|CHF|JPY|CAD|AUD)\b\s?|US\s+dollars\s"
_POST_CURRENCY = (
    r"(?:USD|EUR|GBP|AED|CHF|JPY|CAD|AUD)\b|(?:US\s+)?dollars?\b|euros?\b"
    r"|pounds(?:\s+sterling)?\b|dirhams?\b"
)
_AMOUNT = re.compile(
    rf"(?=[\d{_INITIALS}$€£UuEeGgAaCcJj])(?:(?P<pre>{_PRE_CURRENCY})\s?(?:{number_pattern('1')})"
    rf"|(?:{number_pattern('2')})\s?(?P<post>{_POST_CURRENCY}))",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    rf"(?:{NUMBER})\s?(?P<pct>%|percent\b|per\s?cent\b|percentage\s+points?\b"
    r"|basis\s+points?\b|bps?\b)",
    re.IGNORECASE,
)
_PERCENT_UNITS = {"percentage": ("percentage point", " pp"), "b": ("basis point", " bp")}
_HALF = re.compile(r"\b(?:one[\s-])?half(?=\s+(?:of|the)\b)", re.IGNORECASE)  # not "behalf"
# Cents are dollars too, so "seventy-five cents" and "$0.75" state the same amount.
_CENTS = re.compile(rf"(?:{NUMBER})\s?cents?\b", re.IGNORECASE)
_TIME_UNITS = {  # unit word -> (ISO designator, in the time part, months per unit or 1)
    "second": ("S", True, 1), "minute": ("M", True, 1), "hour": ("H", True, 1),
    "day": ("D", False, 1), "week": ("W", False, 1), "month": ("M", False, 1),
    "quarter": ("M", False, 3), "year": ("Y", False, 1), "person_hour": ("H", True, 1),
}  # fmt: skip
# "an hour", "a year" state one unit, but only after a bound ("within an hour", "more than a
# year"): "$100 a year" is a rate and "a day of training" no duration at all.
_ARTICLE_BOUND = "".join(
    rf"(?<=\b{word}\s)|" for word in ("within", "than", "for", "to", "least", "over", "after")
).rstrip("|")
_DURATION = re.compile(
    rf"(?=[\d{_INITIALS}aA])(?:{NUMBER}|(?:{_ARTICLE_BOUND})(?P<article>an?))[\s-]+"
    r"(?:(?:more|extra|additional|further)\s+)?"  # "30 more days" extend a period by 30 days
    r"(?:(?P<cal>calendar|business|working|banking|consecutive)[\s-]+)?"
    r"(?P<unit>person[\s-]hours?|seconds?|minutes?|hours?|days?|weeks?|months?|quarters?"
    r"|years?)\b",
    re.IGNORECASE,
)
_AGE = re.compile(rf"\bage\s+(?:of\s+)?(?:{NUMBER})(?![\s-]+(?:years?|months?)\b)", re.IGNORECASE)
_MONTHS = {
    name: i
    for i, month in enumerate(calendar.month_name)
    if month
    for name in (month, month[:3], month[:3] + ".", "Sept", "Sept.")
    if not (name.startswith("Sept") and i != 9)
}
_MONTH = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_DATE = re.compile(
    rf"\b(?P<m1>{_MONTH})(?!\w)\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y1>\d{{4}})\b)?"
    rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH})(?!\w)(?:,?\s+(?P<y2>\d{{4}})\b)?"
    rf"|\b(?P<m3>{_MONTH})(?!\w),?\s+(?P<y3>\d{{4}})\b"
    r"|\b(?P<y4>\d{4})-(?P<m4>\d{2})-(?P<d4>\d{2})\b"
    r"|\b(?P<m5>\d{1,2})/(?P<d5>\d{1,2})/(?P<y5>\d{4})\b"
)
# Relative dates of worked examples: "December 31 of year 2", "any day of year 1".
_RELATIVE_DATE = re.compile(
    rf"(?:\b(?P<month>{_MONTH})(?!\w)\s+(?P<day>\d{{1,2}})\s+of\s+|(?<=\bof\s)|(?<=\bin\s))"
    r"year\s+(?P<year>\d{1,2})\b"
)
_COUNT = re.compile(
    rf"(?<![\w.,$€£])(?P<digits>{DIGITS})(?P<mult>{_WORD_MULT})?"
    r"(?P<more>\s+or\s+(?:more|fewer|less|greater))?(?:\s+(?P<noun>[a-z][a-z\-]+))?"
)
_NOT_NOUNS = STOPWORDS | {
    *("percent", "per", "upon", "nor", "less", "fewer", "greater", "whenever", "wherever"),
    *("unless", "although", "though", "because", "since", "whereas"),
}
_WORD_COUNT = re.compile(
    rf"(?=[{_INITIALS}])(?P<word>{WORD_NUMBER})(?P<more>\s+or\s+(?:more|fewer|less|greater|both))?"
    r"(?:\s+(?P<noun>(?:(?:such|other|additional|separate)\s+)?[A-Za-z][a-z\-]+))?",
    re.IGNORECASE,
)
# "one" is a pronoun after a determiner ("the one claimed", "any one of the following", "other
# than one listed") or before a relative ("one who").
_PRONOUN_ONE_BEFORE = re.compile(
    r"\b(?:the|any|no|each|every|this|that|which|some|such|other\s+than)\s+$", re.IGNORECASE
)
_PRONOUN_ONE_AFTER = re.compile(
    r"\s+(?:another|who|whom|that|which|of\s+the\s+following)\b", re.IGNORECASE
)
_PARTITIVE = re.compile(r"\s+of\s+(?:the|those|these|them|its|their|such)\b", re.IGNORECASE)
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
# "once" is a count in "at least once", "once a year", "once in any period", "only once." and a
# conjunction in "Once proceedings have begun" or ", once the order expires".
_TIMES_RE = re.compile(
    r"\b(?P<word>once|twice|thrice)\b"
    r"(?=\s+(?:a|an|per|every|each)\s+(?:year|month|week|day|quarter|calendar|fiscal|period"
    r"|pay|business)|\s+(?:in|during)\b|\s*[,.;)]|$)",
    re.IGNORECASE,
)
_QUALIFIERS = (
    "within", "no later than", "not later than", "in no case later than", "no earlier than",
    "not earlier than",
    "at least", "not less than", "no less than", "not more than", "no more than",
    "not to exceed", "not exceeding", "not exceed", "exceed", "exceeding", "in excess of",
    "up to", "less than", "fewer than", "more than", "greater than", "over", "after", "before",
    "by", "on or before", "on or after", "prior to", "until", "from", "beginning", "starting",
    "effective", "as of", "for", "every", "each", "approximately", "about", "a minimum of",
    "a maximum of", "at most", "only", "no longer than", "not longer than", "longer than",
)  # fmt: skip
_QUALIFIER = re.compile(
    rf"\b(?P<q>{'|'.join(re.escape(q) for q in sorted(_QUALIFIERS, key=len, reverse=True))})\s+"
    r"(?:a\s+period\s+of\s+|a\s+total\s+of\s+|the\s+)?$",
    re.IGNORECASE,
)


# Words without which a pattern cannot match: checking them first keeps mentions() fast on the
# short claims verification reads, where most patterns have nothing to find.
_AMOUNT_MARKS = ("$", "€", "£", "usd", "eur", "gbp", "aed", "chf", "jpy", "cad", "aud", "dollar",
                 "pound", "dirham")  # fmt: skip
_PERCENT_MARKS = ("%", "cent", "point", "bp")
_DURATION_MARKS = ("second", "minute", "hour", "day", "week", "month", "quarter", "year")
_DIGIT = re.compile(r"\d")
# What every mention needs: a digit, a number word, "half", "once", or "an hour"-like units.
_MAY_HOLD_NUMBER = re.compile(
    rf"\d|\b(?:half|once|twice|thrice)\b|(?=[{_INITIALS}])(?:{WORD_NUMBER})"
    r"|\ban?[\s-]+(?:\w+[\s-]+)?(?:person[\s-]hours?|seconds?|minutes?|hours?|days?|weeks?"
    r"|months?|quarters?|years?)\b",
    re.IGNORECASE,
)


def _mentions_any(text: str, marks: tuple[str, ...]) -> bool:
    lowered = text.lower()
    return any(mark in lowered for mark in marks)


def _qualifier(text: str, start: int) -> str | None:
    """The comparing word just before a number: within, no later than, at least, by ..."""
    found = _QUALIFIER.search(text, max(0, start - 40), start)
    return found.group("q").lower() if found else None


def _steps(surface: str, spelled: bool, digits_form: str, normalised: str) -> tuple[str, ...]:
    """The chain shown as the transformation; the middle form only where words, brackets or
    a multiplier were resolved."""
    chain = [surface, digits_form] if spelled else [surface]
    chain.append(normalised)
    return tuple(dict.fromkeys(chain))


def _amounts(text: str) -> Iterator[Mention]:
    for m in _AMOUNT.finditer(text) if _mentions_any(text, _AMOUNT_MARKS) else ():
        number = _number(m)
        mark = (m.group("pre") or m.group("post")).strip().lower()
        code = _CURRENCY[re.sub(r"\s+", " ", mark)]
        normalised = f"{_plain(number.value)} {code}"
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "amount",
            number.value,
            code,
            normalised,
            _qualifier(text, m.start()),
            _steps(m.group(0), number.spelled, f"{_grouped(number.value)} {code}", normalised),
        )
    for m in _CENTS.finditer(text) if _mentions_any(text, ("cent",)) else ():
        value = _exact(_number(m).value / 100)
        normalised = f"{_plain(value)} USD"
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "amount",
            value,
            "USD",
            normalised,
            _qualifier(text, m.start()),
            _steps(m.group(0), True, f"{_grouped(value)} USD", normalised),
        )


def _percentages(text: str) -> Iterator[Mention]:
    for m in _PERCENT.finditer(text) if _mentions_any(text, _PERCENT_MARKS) else ():
        number = _number(m)
        mark = m.group("pct").lower()
        unit, sign = next(
            (v for k, v in _PERCENT_UNITS.items() if mark.startswith(k)), ("percent", "%")
        )
        normalised = f"{_plain(number.value)}{sign}"
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "percentage",
            number.value,
            unit,
            normalised,
            _qualifier(text, m.start()),
            _steps(m.group(0), number.spelled, f"{_plain(number.value)} {unit}", normalised),
        )
    for m in _HALF.finditer(text) if _mentions_any(text, ("half",)) else ():
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "percentage",
            Decimal(50),
            "percent",
            "50%",
            _qualifier(text, m.start()),
            _steps(m.group(0), True, "50 percent", "50%"),
        )


def _durations(text: str) -> Iterator[Mention]:
    for m in _DURATION.finditer(text) if _mentions_any(text, _DURATION_MARKS) else ():
        number = _Number(Decimal(1), True) if m.group("article") else _number(m)
        word = re.sub(r"[\s-]+", "_", m.group("unit").lower()).rstrip("s")
        designator, in_time, months = _TIME_UNITS[word]
        value = number.value * months
        business = (m.group("cal") or "").lower() in ("business", "working", "banking")
        unit = "business day" if business and word == "day" else ("month" if months > 1 else word)
        normalised = f"P{'T' if in_time else ''}{_plain(value)}{designator}"
        said = f"{_plain(value)} {unit}{'' if value == 1 else 's'}"
        chain = [m.group(0)]
        if number.spelled or months > 1:
            if months > 1:
                chain.append(f"{_plain(number.value)} quarters")
            chain.append(said)
        chain.append(normalised)
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "duration",
            value,
            unit,
            normalised,
            _qualifier(text, m.start()),
            tuple(dict.fromkeys(chain)),
        )
    for m in _AGE.finditer(text) if _mentions_any(text, ("age",)) else ():
        number = _number(m)
        normalised = f"P{_plain(number.value)}Y"
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "duration",
            number.value,
            "year",
            normalised,
            _qualifier(text, m.start()),
            _steps(m.group(0), True, f"{_plain(number.value)} years of age", normalised),
        )


def _iso_date(year: str | None, month: int, day: str | None) -> str | None:
    """An ISO 8601 date (--MM-DD without a year, YYYY-MM without a day), or None if invalid."""
    if not 1 <= month <= 12:
        return None
    if day is None:
        return f"{year}-{month:02d}"
    limit = calendar.monthrange(int(year), month)[1] if year else (29 if month == 2 else 31)
    if not 1 <= int(day) <= limit:
        return None
    return f"{year}-{month:02d}-{int(day):02d}" if year else f"--{month:02d}-{int(day):02d}"


def _dates(text: str) -> Iterator[Mention]:
    for m in _RELATIVE_DATE.finditer(text) if _mentions_any(text, ("year",)) else ():
        relative = f"Y{int(m.group('year'))}"
        if m.group("month"):
            iso = _iso_date(None, _MONTHS[m.group("month")], m.group("day"))
            if iso is None:
                continue
            relative += iso[1:]  # --12-31 -> Y2-12-31
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "date",
            None,
            "date",
            relative,
            _qualifier(text, m.start()),
            _steps(m.group(0), False, relative, relative),
        )
    for m in _DATE.finditer(text) if _DIGIT.search(text) else ():
        g = m.groupdict()
        if g["m1"] or g["m2"] or g["m3"]:
            month = _MONTHS[g["m1"] or g["m2"] or g["m3"]]
            iso = _iso_date(g["y1"] or g["y2"] or g["y3"], month, g["d1"] or g["d2"])
        elif g["y4"]:
            iso = _iso_date(g["y4"], int(g["m4"]), g["d4"])
        else:
            first, second = int(g["m5"]), int(g["d5"])
            month, day = (second, first) if first > 12 else (first, second)  # US order unless not
            iso = _iso_date(g["y5"], month, str(day))
        if iso is None:
            continue
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "date",
            None,
            "date",
            iso,
            _qualifier(text, m.start()),
            _steps(m.group(0), False, iso, iso),
        )


def _counts(text: str) -> Iterator[Mention]:
    for m in _COUNT.finditer(text) if _DIGIT.search(text) else ():
        digits, mult = m.group("digits"), (m.group("mult") or "").strip()
        if "." in digits and not mult:
            continue  # 164.404 or 2.5 with no unit is a reference or a ratio, not a count
        grouped = not digits.isdigit() and "." not in digits  # 1,000 or 1 000
        if not mult and not grouped and len(digits) == 4 and 1600 <= int(digits) <= 2099:
            continue  # a bare year
        value = _exact(_decimal(digits) * (_MULTIPLIERS[mult.lower()] if mult else 1))
        noun = m.group("noun") if m.group("noun") not in _NOT_NOUNS else None
        more = m.group("more")
        qualifier = _qualifier(text, m.start()) or (more.strip() if more else None)
        if not (noun or qualifier or mult or grouped):
            continue  # a lone digit is a footnote mark or a stray label more often than a count
        last = "noun" if noun else "more" if more else "mult" if mult else "digits"
        surface = text[m.start() : m.end(last)]
        normalised = _plain(value)
        yield Mention(
            m.start(),
            m.end(last),
            surface,
            "count",
            value,
            noun or "",
            normalised,
            qualifier,
            _steps(surface, bool(mult), _grouped(value), normalised),
        )
    yield from _word_counts(text)
    yield from _times(text)


def _word_counts(text: str) -> Iterator[Mention]:
    """Counts in words: "two or more consumers", "one such extension", "permit one of the joint
    consumers", "no less than three"; never the pronoun "one" ("the one claimed")."""
    for m in _WORD_COUNT.finditer(text):
        word = m.group("word")
        if word.lower() == "one" and (
            _PRONOUN_ONE_BEFORE.search(text, max(0, m.start() - 12), m.start())
            or _PRONOUN_ONE_AFTER.match(text, m.end("word"))
        ):
            continue
        noun = m.group("noun")
        if noun and (noun.lower() in _NOT_NOUNS or not noun.islower()):
            noun = None
        more = m.group("more")
        qualifier = _qualifier(text, m.start()) or (more.strip() if more else None)
        partitive = _PARTITIVE.match(text, m.end("more") if more else m.end("word"))
        if not (noun or qualifier or partitive):
            continue
        last = "noun" if noun else "more" if more else "word"
        value = Decimal(word_value(word))
        surface = text[m.start() : m.end(last)]
        yield Mention(
            m.start(),
            m.end(last),
            surface,
            "count",
            value,
            noun or "",
            _plain(value),
            qualifier,
            _steps(surface, True, _plain(value), _plain(value)),
        )


def _times(text: str) -> Iterator[Mention]:
    """ "once", "twice": how often, unless a clause opens with it ("Once the order expires")."""
    for m in _TIMES_RE.finditer(text) if _mentions_any(text, tuple(_TIMES)) else ():
        before = text[: m.start()].rstrip()
        if not before or before[-1] in ".;:,(":
            continue
        value = Decimal(_TIMES[m.group("word").lower()])
        yield Mention(
            m.start(),
            m.end(),
            m.group(0),
            "count",
            value,
            "time",
            _plain(value),
            _qualifier(text, m.start()),
            _steps(m.group(0), True, _plain(value), _plain(value)),
        )


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def _overlaps(span: tuple[int, int], fences: list[tuple[int, int]]) -> bool:
    start, end = span
    return any(start < f_end and f_start < end for f_start, f_end in fences)


def mentions(text: str) -> list[Mention]:
    """Every number mention in `text`, in order of position, none overlapping another.

    References (citations, section and paragraph numbers, identifiers, act years) are never
    reported. Amounts, percentages, dates and durations win over bare counts, and the earlier
    kind in that list wins where two overlap.
    """
    if not _MAY_HOLD_NUMBER.search(text):
        return []
    digits = _DIGIT.search(text) is not None
    # Without a digit no fence but a spelled reference can hold a number.
    references = _spans(_REFERENCES, text) if digits else []
    for gate, pattern in _GATED_REFERENCES if digits else ():
        if gate.search(text):
            references += _spans(pattern, text)
    references += _spans(_SPELLED_REFERENCES, text)
    weak = list(references)
    if digits:
        weak += [
            (m.start(), m.end())
            for m in _TOKENS.finditer(text)
            if _IDENTIFIER_MARK.search(m.group("token")) and not _MULTIPLIED.fullmatch(m.group(0))
        ]
        for fence in (_LABELS, _NAMED, _ORDINALS):
            weak += _spans(fence, text)
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for kind in (_amounts, _percentages, _dates, _durations):
        for mention in kind(text):
            span = (mention.start, mention.end)
            if _overlaps(span, taken):
                continue
            if _in_reference(mention, text, references):
                weak.append(span)  # and no count inside it either ("Jan. 25, 2013")
                continue
            found.append(mention)
            taken.append(span)
    for mention in _counts(text):
        span = (mention.start, mention.end)
        if not _overlaps(span, taken) and not _overlaps(span, weak):
            found.append(mention)
            taken.append(span)
    return sorted(found, key=lambda m: m.start)


def _in_reference(mention: Mention, text: str, references: list[tuple[int, int]]) -> bool:
    """Inside a reference, or a date that belongs to one ("78 FR 5693, Jan. 25, 2013",
    "Directive 95/46/EC of 24 October 1995")."""
    if _overlaps((mention.start, mention.end), references):
        return True
    if mention.kind != "date":
        return False
    lead = _CITATION_LEAD.search(text, max(0, mention.start - 12), mention.start)
    return bool(lead) and any(end == lead.start() for _, end in references)
