"""Numbers in legal text: amounts, percentages, counts, durations and dates, each normalised.

A compliance answer is only as good as its figures, so the report shows where each one comes
from and claim verification compares them by value (`Mention.key`), whatever their wording:
"sixty (60) days" and "60 days" are both P60D. What this module must *not* report matters as
much: section, paragraph and citation numbers (§ 164.404, 45 CFR 164.512(f)(1), 42 U.S.C.
290dd-2, (b)(2), "section 33.13"), list labels, document identifiers (NIST SP 800-53, AC-2(3),
Public Law 104-191) and the years in act names are references, not quantities.

How: references are found first and fenced off. Then the patterns of amounts, percentages,
dates and durations, which carry their own unit and so may cross an identifier-looking token
("30-day", "$3.2B", "2024-01-01"), and last bare counts, which must avoid every fence.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from groundwork.text import STOPWORDS


@dataclass(frozen=True)
class Mention:
    """One number in a text: where it is, what it is, and its value in a comparable form.

    `kind` is amount, percentage, count, duration or date. `value` is the quantity in `unit`s
    (None for dates, whose value is the ISO `normalised`); `normalised` is ISO 8601 for
    durations (P60D) and dates (2024-01-01, --03-31 without a year), `3200000000 USD` for
    amounts, `25%` for percentages and the bare integer for counts. `steps` runs from the
    surface to the normalised form, for showing what was done to it.
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


def number_pattern(tag: str) -> str:
    """A number as contracts write it: digits (with a multiplier), words, or words with the
    digits in brackets. Group names end in `tag`, so one pattern may hold it twice."""
    return (  # the lookahead fails fast where no number can start (3x faster)
        r"(?:(?<![\w.,])(?=\d)|\b(?=[zotfsenZOTFSEN]))"
        rf"(?:(?P<words{tag}>{WORD_NUMBER})\s*\(\s*(?P<bracketed{tag}>{DIGITS})\s*\)"
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
_REF_WORDS = (
    r"§+|sections?|secs?\.|(?<![’'])ss?\.?|paragraphs?|paras?\.|subparagraphs?|subsections?|sub-sections?|"
    r"clauses?|sub-?clauses?|articles?|arts?\.|chapters?|ch\.|parts?|subparts?|titles?|"
    r"subtitles?|subchapters?|rules?|regulations?|schedules?|appendix|appendices|annex(?:es)?|"
    r"exhibits?|items?|forms?|steps?|phases?|levels?|tiers?|versions?|v\.|rev\.|revisions?|"
    r"no\.|nos\.|numbers?|pages?|pp?\.|footnotes?|notes?|tables?|figures?|figs?\.|volumes?|"
    r"vols?\.|divisions?|public\s+laws?|pub\.\s*l\.|p\.\s*l\.|executive\s+orders?|e\.\s*o\.|"
    r"orders?|circulars?|bulletins?|directives?|standards?|principles?|controls?|pillars?"
)
_CODES = r"CFR|C\.F\.R\.|U\.S\.C\.?|USC|FR|Fed\.\s?Reg\.|Stat\.|U\.S\.|S\.\s?Ct\.|L\.\s?Ed\."
_CURRENCY_CODES = "USD|EUR|GBP|AED|CHF|JPY|CAD|AUD"
_REFERENCES = re.compile(
    # section 33.13, § 164.404, paragraph (b)(2), Public Law 104-191
    rf"(?:\b(?=[A-Za-z])|(?=§))(?:{_REF_WORDS})(?={_SPACE}|[(§\d])(?:{_REF_TAIL})"
    rf"|\b\d+\s+(?:{_CODES})(?:{_REF_TAIL})?"  # 45 CFR 164.512(f)(1), 78 FR 5693
    rf"|(?-i:\b(?!(?:{_CURRENCY_CODES})\b)[A-Z][A-Z&]{{1,7}}{_REF_TAIL})"  # SP 800-53
    r"|\b(?:Act|Code|Law|Laws|Regulations|Rules|Ordinance|Amendments|Statute)"
    r"(?:\s+of)?,?\s+(?:1[6-9]|20)\d\d\b",  # HIPAA Act of 1996, Data Protection Act 2018
    re.IGNORECASE,
)
_LINKS = re.compile(r"https?://\S+|\bwww\.\S+|\b[\w.+-]+@[\w-]+\.[\w.]+|\]\(#?[^)\s]*\)", re.I)
# Tokens that mix digits with letters, hyphens, slashes, colons or several dots: AC-2(3),
# 290dd-2, 2016/679, 1.1.1, 10-K, 5:00. They block bare counts, not numbers with a unit.
_TOKENS = re.compile(r"(?<![\w.\-–/:])[\w.\-–/:]*\d[\w.\-–/:]*(?:\([\w.]+\))*")
_IDENTIFIER = re.compile(r"\d[A-Za-z]|[A-Za-z]\d|\d[\-–/:]\w|\w[\-–/:]\d|\d\.\d+\.\d")
# A capitalised word inside a sentence followed by a number names a thing: "the Pillar 2
# review", "under Schedule 1". Sentence-initial words ("Approximately 500") are not fenced.
_NAMED = re.compile(
    r"(?<=[a-z,;:(]\s)(?!(?:The|A|An|Over|About|Approximately|Up)\b)[A-Z][a-z]+\s\d+\b"
)
# Ordinals written as labels: "by December 31 of year 2", "day 1", "class 3".
_ORDINALS = re.compile(
    r"\b(?=[A-Za-z])(?:year|day|month|week|quarter|class|category|type|group|grade|round|stage|zone)"
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
_CITATION_LEAD = re.compile(r"\s*(?:,|\bof|\bdated)\s*$", re.IGNORECASE)

# --- quantities ---------------------------------------------------------------------------

_CURRENCY = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD",
    "us dollars": "USD", "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "pounds sterling": "GBP",
    "aed": "AED", "dirham": "AED", "dirhams": "AED", "chf": "CHF", "jpy": "JPY",
    "cad": "CAD", "aud": "AUD",
}  # fmt: skip
_PRE_CURRENCY = rf"US\$|\$|€|£|(?:{_CURRENCY_CODES})\b\s?|US\s+dollars\s"
_POST_CURRENCY = (
    rf"(?:{_CURRENCY_CODES})\b|(?:US\s+)?dollars?\b|euros?\b|pounds(?:\s+sterling)?\b|dirhams?\b"
)
_AMOUNT = re.compile(
    rf"(?P<pre>{_PRE_CURRENCY})\s?(?:{number_pattern('1')})"
    rf"|(?:{number_pattern('2')})\s?(?P<post>{_POST_CURRENCY})",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    rf"(?:{NUMBER})\s?(?P<pct>%|percent\b|per\s?cent\b|percentage\s+points?\b"
    r"|basis\s+points?\b|bps?\b)",
    re.IGNORECASE,
)
_PERCENT_UNITS = {"percentage": ("percentage point", " pp"), "b": ("basis point", " bp")}
_TIME_UNITS = {  # unit word -> (ISO designator, in the time part, months per unit or 1)
    "second": ("S", True, 1), "minute": ("M", True, 1), "hour": ("H", True, 1),
    "day": ("D", False, 1), "week": ("W", False, 1), "month": ("M", False, 1),
    "quarter": ("M", False, 3), "year": ("Y", False, 1),
}  # fmt: skip
_DURATION = re.compile(
    rf"(?:{NUMBER})[\s-]+(?:(?P<cal>calendar|business|working|banking|consecutive)[\s-]+)?"
    r"(?P<unit>seconds?|minutes?|hours?|days?|weeks?|months?|quarters?|years?)\b",
    re.IGNORECASE,
)
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
_COUNT = re.compile(
    rf"(?<![\w.,$€£])(?P<digits>{DIGITS})(?P<mult>{_WORD_MULT})?"
    r"(?P<more>\s+or\s+(?:more|fewer|less|greater))?(?:\s+(?P<noun>[a-z][a-z\-]+))?"
)
_NOT_NOUNS = STOPWORDS | {"percent", "per", "upon", "nor", "less", "fewer", "greater"}
_QUALIFIERS = (
    "within", "no later than", "not later than", "no earlier than", "not earlier than",
    "at least", "not less than", "no less than", "not more than", "no more than",
    "not to exceed", "not exceeding", "not exceed", "exceed", "exceeding", "in excess of",
    "up to", "less than", "fewer than", "more than", "greater than", "over", "after", "before",
    "by", "on or before", "on or after", "prior to", "until", "from", "beginning", "starting",
    "effective", "as of", "for", "every", "each", "approximately", "about", "a minimum of",
    "a maximum of", "at most", "only",
)  # fmt: skip
_QUALIFIER = re.compile(
    rf"\b(?P<q>{'|'.join(re.escape(q) for q in sorted(_QUALIFIERS, key=len, reverse=True))})\s+"
    r"(?:a\s+period\s+of\s+|a\s+total\s+of\s+|the\s+)?$",
    re.IGNORECASE,
)


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
    for m in _AMOUNT.finditer(text):
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


def _percentages(text: str) -> Iterator[Mention]:
    for m in _PERCENT.finditer(text):
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


def _durations(text: str) -> Iterator[Mention]:
    for m in _DURATION.finditer(text):
        number = _number(m)
        word = m.group("unit").lower().rstrip("s")
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
    for m in _DATE.finditer(text):
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
    for m in _COUNT.finditer(text):
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


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def _overlaps(span: tuple[int, int], fences: list[tuple[int, int]]) -> bool:
    start, end = span
    return any(start < f_end and f_start < end for f_start, f_end in fences)


# Cheap tests that skip a pattern when its text cannot be there (most of the time is spent
# trying patterns at every position of texts that hold none of their numbers).
_GATES = {
    "amounts": re.compile(
        rf"[$€£]|\b(?:{_CURRENCY_CODES}|dollars?|euros?|pounds|dirhams?)\b", re.I
    ),
    "percentages": re.compile(r"%|\bper\s?cent|\bpercentage|\bbasis\s+point|\bbps?\b", re.I),
    "dates": re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)|\d[-/]\d"),
    "durations": re.compile(r"(?:second|minute|hour|day|week|month|quarter|year)s?\b", re.I),
}
_ANY_NUMBER = re.compile(rf"\d|\b(?=[zotfsen]){WORD_NUMBER}", re.IGNORECASE)


def mentions(text: str) -> list[Mention]:
    """Every number mention in `text`, in order of position, none overlapping another.

    References (citations, section and paragraph numbers, identifiers, act years) are never
    reported. Amounts, percentages, dates and durations win over bare counts, and the earlier
    kind in that list wins where two overlap.
    """
    if not _ANY_NUMBER.search(text):
        return []
    references = _spans(_REFERENCES, text)
    if any(mark in text for mark in ("http", "www.", "@", "](")):
        references += _spans(_LINKS, text)
    identifiers = [
        m.span()
        for m in _TOKENS.finditer(text)
        if _IDENTIFIER.search(m.group(0)) and not _MULTIPLIED.fullmatch(m.group(0))
    ]
    weak = references + identifiers
    for fence in (_LABELS, _NAMED, _ORDINALS):
        weak += _spans(fence, text)
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    kinds = (_amounts, _percentages, _dates, _durations)
    for kind in (k for k in kinds if _GATES[k.__name__.lstrip("_")].search(text)):
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
