"""Content terms of a claim or quote, and how much of a claim its quote states.

An auditor reads "covered entities have to tell individuals promptly" as "a covered entity shall
notify each individual without unreasonable delay". So before terms are compared they are
reduced to one form: legal fixed phrases to one word ("without unreasonable delay" →
"promptly"), irregular verbs to their base ("begun" → "begin"), words to Snowball stems
(groundwork.text.terms), and stems of a small set of synonyms common in legal paraphrase to one
stem (notify ≈ tell ≈ inform; provide ≈ give ≈ furnish; retain ≈ keep ≈ maintain). The set is
kept narrow on purpose: "individual" ≈ "person" holds in these texts, but "patient" and
"client" name narrower classes and stay apart, as do "facility" and "hospital".

Function words, modal words (their meaning is compared separately, by
groundwork.claims.modality), hedges, and the numbers and citation labels (compared by
groundwork.claims.numeric and the qualifier check) are not content terms.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

from groundwork.text.numbers import WORD_NUMBER
from groundwork.text.terms import STOPWORDS
from groundwork.wording.lists import entries, records, words

# Phrases that say one thing in several ways; replaced before tokenising.
_PHRASES = (
    (r"without\s+unreasonable\s+delay|without\s+delay|as\s+soon\s+as\s+possible", "promptly"),
    (r"free\s+of\s+charge|without\s+charge|at\s+no\s+(?:cost|charge)|free\b", "gratis"),
    (r"(?:once\s+a|per|each|every)\s+year\b|annually|yearly", "annual"),
    (r"make\s+(?:\w+\s+)?available|give\s+access", "provide"),
    (r"give\s+up|waive", "waive"),
    (r"capped\s+at|(?:a\s+)?cap\s+of|(?:a\s+)?ceiling\s+of", "not exceeding"),
    (r"out[\s-]of[\s-]date", "outdated"),
    (r"prior\s+to|in\s+advance\s+of|ahead\s+of", "before"),
    (r"subsequent\s+to", "after"),
    (r"personal\s+health\s+information", "protected health information"),
)
# Validity, in its negative forms first: "is not valid", "has no legal effect" → "void". Read
# only in a text that speaks of validity or effect (_VALIDITY_CUE), since "is", "has" open them.
_VALIDITY = re.compile(
    r"\b(?:shall|will|does|do|did|may|can)\s+not\s+(?:invalidate|void|nullify|annul)\b"
    r"|\b(?P<void>null\s+and\s+void|invalidates?|voids|nullif(?:y|ies)|annuls?"
    r"|(?:is|are|be|was|were)\s+not\s+(?:legally\s+)?(?:valid"
    r"|enforceable|binding|effective)|invalid|unenforceable|ineffective|non-?binding"
    r"|(?:of|has|have|had)\s+no\s+(?:legal\s+)?(?:force|effect)(?:\s+or\s+effect)?)\b"
    r"|\b(?:is|are|be|was|were|remains?)\s+(?:legally\s+)?(?:valid|enforceable|binding"
    r"|effective)\b|\btakes?\s+effect\b",
    re.IGNORECASE,
)
_VALIDITY_CUE = re.compile(r"valid|void|enforceable|binding|effect|nullif|annul", re.IGNORECASE)
_PHRASE_RE = re.compile(  # the lookahead (the phrases' first letters) spares most positions
    r"\b(?=[wafopeymgcisWAFOPEYMGCIS])(?:"
    + "|".join(rf"(?P<p{i}>\b(?:{pattern}))" for i, (pattern, _) in enumerate(_PHRASES))
    + ")",
    re.IGNORECASE,
)

_IRREGULAR = dict(records("irregular_forms", 2))

# Each group's words share the first word's stem.
_SYNONYMS = entries("synonyms")

# Words that carry no content of their own in a claim or quote.
_FUNCTION_WORDS = STOPWORDS | words("function_words")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_STEMMER = Stemmer.Stemmer("english")
_MIN_PREFIX = 5
_BROKEN_HYPHEN = re.compile(r"(\w)- (\w)")
_SPACES = re.compile(r"\s+")
_LABEL = re.compile(r"\((?:[a-z]{1,3}|[ivxlcdm]+|\d+[A-Za-z]?|[A-Z])\)")
# "a year" is a number only after a bound ("more than a year"), not in "during a calendar year".
_ARTICLE_AFTER_BOUND = (
    "(?:"
    + "|".join(rf"(?<=\b{w}\s)" for w in ("within", "than", "for", "to", "least", "over"))
    + r")an?"
)
_UNITS = ("second", "minute", "hour", "day", "week", "month", "quarter", "year", "percent",
          "cent", "dollar")  # fmt: skip
_NUMBER_UNIT = re.compile(  # the lookahead spares the number words at most positions
    rf"\b(?=[\daAeEfFnNoOsStTzZ])(?:\d[\d,.]*|(?:{WORD_NUMBER})|{_ARTICLE_AFTER_BOUND})[\s-]+"
    r"(?:(?:calendar|business|working|consecutive)"
    r"[\s-]+)?(?:person[\s-]hours?|seconds?|minutes?|hours?|days?|weeks?|months?|quarters?"
    r"|years?|percent|cents?|dollars?)\b",
    re.IGNORECASE,
)
_ACRONYM = re.compile(r"\b(?:e?[A-Z]{2,6})s?\b")
_ACRONYM_GLUE = frozenset({"of", "and", "the", "for", "to", "on", "in", "without"})


def _canonical_stems() -> dict[str, str]:
    stems: dict[str, str] = {}
    for group in _SYNONYMS:
        words = group.split()
        for word in words:
            stems[_STEMMER.stemWord(word)] = _STEMMER.stemWord(words[0])
    return stems


_CANONICAL = _canonical_stems()


@lru_cache(maxsize=16_384)
def normalised(text: str) -> str:
    """Text with the corpus's typographic noise removed: `**bold**`, curly quotes, `long- term`."""
    text = text.replace("**", "").replace("’", "'").replace("‘", "'")
    text = text.replace("“", '"').replace("”", '"').replace("\u00a0", " ")
    return _SPACES.sub(" ", _BROKEN_HYPHEN.sub(r"\1-\2", text)).strip()


@lru_cache(maxsize=65_536)
def term(word: str) -> str:
    """The comparable form of one word: base form, stem, then the synonym group's stem."""
    word = word.lower().removesuffix("'s").strip("'")
    stem = _STEMMER.stemWord(_IRREGULAR.get(word, word))
    return _CANONICAL.get(stem, stem)


def phrased(text: str) -> str:
    """The text with each fixed phrase replaced by its one word, and each statement of
    validity by "valid" or "void"."""
    text = _PHRASE_RE.sub(lambda m: _PHRASES[int(m.lastgroup[1:])][1], text)
    if _VALIDITY_CUE.search(text):
        text = _VALIDITY.sub(lambda m: "void" if m.group("void") else "valid", text)
    return text


@lru_cache(maxsize=16_384)
def content_terms(text: str) -> tuple[str, ...]:
    """The content terms of a text, in order, repeats kept. Digits and list labels ("(b)",
    "(ii)") are not words, and neither are number words and the units after a number ("60
    calendar days", "a year"): numbers are compared by value (groundwork.claims.numeric)."""
    plain = phrased(_LABEL.sub(" ", normalised(text)))
    if any(unit in plain.lower() for unit in _UNITS):
        plain = _NUMBER_UNIT.sub(" ", plain)
    words = _WORD.findall(plain.replace("-", " "))
    return tuple(term(w) for w in words if len(w) > 1 and w.lower() not in _FUNCTION_WORDS)


def spelled_out(text: str, other: str) -> str:
    """The text with each acronym the other text spells out replaced by its words: "PHI" when
    the other says "protected health information", "LWOP" for "leave without pay"."""
    return _ACRONYM.sub(lambda m: _spelling(m.group(0), other) or m.group(0), text)


def _spelling(acronym: str, other: str) -> str | None:
    letters = acronym.removesuffix("s").lower()
    letters = letters[1:] if acronym[0] == "e" else letters  # ePHI: electronic PHI
    words = _WORD.findall(other)
    for start, first in enumerate(words):
        if first[0].lower() != letters[0]:
            continue
        position, matched = start, 0
        while position < len(words) and matched < len(letters):
            word = words[position].lower()
            if word[0] == letters[matched]:
                matched += 1
            elif word not in _ACRONYM_GLUE:
                break
            position += 1
        if matched == len(letters):
            return " ".join(words[start:position])
    return None


# Verbs ending in "-ly", which a test for adverbs ("promptly", "annually") would skip.
_LY_VERBS = frozenset("apply comply supply rely reply multiply ally".split())  # noqa: SIM905


def is_adverb(word: str) -> bool:
    """A word read as an adverb, to be skipped when looking for a verb: "-ly", but not "apply"
    or "supply"."""
    lowered = word.lower()
    return lowered.endswith("ly") and lowered not in _LY_VERBS


def matches(claim_term: str, quote_terms: frozenset[str]) -> bool:
    """A claim term is stated by the quote if the quote has it, or a word of the same family
    (a shared stem prefix of five letters or more: `notif` / `notifi`, `discov` / `discoveri`)."""
    if claim_term in quote_terms:
        return True
    if len(claim_term) < _MIN_PREFIX:
        return False
    prefix = claim_term[:_MIN_PREFIX]
    return any(
        t.startswith(prefix) and abs(len(t) - len(claim_term)) <= 3 and _shared(t, claim_term)
        for t in quote_terms
    )


def _shared(a: str, b: str) -> bool:
    """The two stems agree on all but the last three letters of the shorter one."""
    keep = max(_MIN_PREFIX, min(len(a), len(b)) - 3)
    return a[:keep] == b[:keep]


def unstated_terms(claim: str, quote: str) -> list[str]:
    """The claim's content terms the quote does not state, once each, in order."""
    quote_terms = frozenset(content_terms(quote))
    missing = [t for t in content_terms(claim) if not matches(t, quote_terms)]
    return list(dict.fromkeys(missing))


def support(claim: str, quote: str) -> float:
    """Share of the claim's distinct content terms that the quote states (1.0 for a claim with
    no content terms: nothing in it goes beyond the quote)."""
    claim_terms = set(content_terms(claim))
    if not claim_terms:
        return 1.0
    quote_terms = frozenset(content_terms(quote))
    stated = sum(matches(t, quote_terms) for t in claim_terms)
    return stated / len(claim_terms)
