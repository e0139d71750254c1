"""Index terms: the one tokenizer that retrieval, its oracle test and verification share.

Lower-cased word tokens of two or more characters, English stop words and question words removed,
Snowball-stemmed (PyStemmer), so "notifications", "notify" and "notified" meet.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

_TOKEN = re.compile(r"\b\w\w+\b")
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    let me more most my myself no nor not of off on once only or other ought our ours ourselves
    out over own same she should so some such than that the their theirs them themselves then
    there these they this those through to too under until up very was we were what when where
    which while who whom why will with would you your yours yourself yourselves also us
    must shall may might need needs required require requires do does dont whether within
    """.split()  # noqa: SIM905 - a word list reads best as prose
)
_STEMMER = Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _STEMMER.stemWord(word)


def terms(text: str) -> list[str]:
    """Index terms of a text, in order, repeats kept (BM25 counts them)."""
    return [_stem(w) for w in _TOKEN.findall(text.lower()) if w not in STOPWORDS]


def surface_words(text: str, stems: list[str]) -> list[str]:
    """The words of `text` behind some index terms, for people: "discov" is shown as the
    question's own "discovering". A term the text does not hold (a prefix match) stays as is."""
    words: dict[str, str] = {}
    for word in _TOKEN.findall(text):
        lowered = word.lower()
        if lowered not in STOPWORDS:
            words.setdefault(_stem(lowered), lowered)
    return [words.get(stem, stem) for stem in stems]
