"""The rules backend of verification: the lexical grounding gate, one (question, requirement)
pair at a time.

The verifier is isolated: it sees the question, one requirement (quote and lead-in) and the chunk
the requirement sits in, never a draft answer, so it cannot be talked into agreeing with one.
A pair is verified when the quote is verbatim in its chunk, the quote itself covers most of the
question's weighted terms, and the quote stands on its own. Otherwise it is rejected as
`not_verbatim`, `incomplete_quote` (it leans on "the following", "such ...", "see §" without the
referent), `requires_inference` (the chunk addresses the question but the quote alone does not),
or `does_not_address_question`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pyarrow as pa

from groundwork.extract.nonrequirements import CONDITION_LEAD
from groundwork.stages import VERIFIER
from groundwork.text.terms import surface_words, terms
from schemas.verifications import VERIFICATIONS_SCHEMA

ADDRESSES = 0.3  # share of the question's IDF weight a quote must cover
MIN_MATCHED = 2  # ... with at least this many distinct question terms
PREFIX = 5  # a 5+ letter stem matches its extensions: "notif" ~ "notifi", "discov" ~ "discoveri"
# Words that frame a question rather than say what it is about ("how many", "which section").
_QUESTION_WORDS = frozenset(
    """mani much anyth someth happen section paragraph subsect part subpart titl chapter law rule
    regul provis act code""".split()  # noqa: SIM905 - a word list reads best as prose
)
_DANGLING_OPENING = re.compile(r"(?:Such|This|That|These|Those|It|They)\b")
# A quote that ends as a lead-in ("... shall include:") leans on the items below it, unless they
# are only the conditions of the duty it states ("... may disclose it only if:"), as the register
# counts it (groundwork/extract/nonrequirements.py). "The following" or "as follows" leans on
# text outside the quote unless a colon in the quote brings it ("the following statement: ...").
_LIST_END = re.compile(r"(?::|—|--|-)\s*$")
_FOLLOWING = re.compile(r"\b(?:the following|as follows)\b(?![^:]*:\s*\S)", re.IGNORECASE)
_SEE = re.compile(r"\b[Ss]ee\s+(?:§|section|paragraph|part)")
# "such notice" points back to a notice named before; "such a way that", "such other time as the
# ALJ fixes" point forward, to what the quote goes on to say.
_SUCH = re.compile(r"\bsuch\s+(?:an?\s+)?(\w+)\b(?!(?:\s+\w+){0,3}\s+(?:as|that)\b)", re.IGNORECASE)
_WORD = re.compile(r"\w+")


def _matches(term: str, found: set[str], prefixes: set[str]) -> bool:
    """Exact stem match, or one stem (5+ letters) extends the other (stemmer misses)."""
    if term in found:
        return True
    if len(term) >= PREFIX and any(f.startswith(term) for f in found if len(f) > len(term)):
        return True
    return any(term.startswith(p) for p in prefixes if len(p) < len(term))


@dataclass(frozen=True)
class TermWeights:
    """IDF of the corpus's terms. A term the corpus never uses weighs as much as the rarest one:
    a question about "GDPR" is not covered by quotes that merely share its other words."""

    idf: dict[str, float]
    unknown: float

    @classmethod
    def of(cls, idf: dict[str, float]) -> TermWeights:
        return cls(idf, max(idf.values(), default=1.0))

    def __call__(self, term: str) -> float:
        return self.idf.get(term, self.unknown)


def coverage(
    question: tuple[str, ...] | list[str], text: tuple[str, ...] | list[str], weight: TermWeights
) -> tuple[float, list]:
    """IDF-weighted share of the question's terms found in the text, and the terms found."""
    wanted = {t for t in question if t not in _QUESTION_WORDS}
    found = set(text)
    prefixes = {t for t in found if len(t) >= PREFIX}
    weights = {t: weight(t) for t in wanted}
    total = sum(weights.values())
    matched = sorted(t for t in wanted if _matches(t, found, prefixes))
    return (sum(weights[t] for t in matched) / total if total else 0.0), matched


def _leans_on_a_list(quote: str) -> bool:
    """Whether the quote introduces items it does not hold."""
    stripped = quote.rstrip()
    if _LIST_END.search(stripped):
        return CONDITION_LEAD.search(stripped) is None
    return _FOLLOWING.search(quote) is not None


def dangling_reference(quote: str, lead_in: str | None) -> str | None:
    """Why a quote cannot stand alone, or None when it can."""
    if lead_in is None and _leans_on_a_list(quote):
        return "it introduces a list or 'the following' items that are not in the quote"
    if lead_in is None and _DANGLING_OPENING.match(quote):
        return f"it opens with '{quote.split()[0]}', whose referent is outside the quote"
    if _SEE.search(quote):
        return "it refers the reader elsewhere ('see ...') for its content"
    for match in _SUCH.finditer(quote):
        before = f"{lead_in or ''} {quote[: match.start()]}"
        named = set(terms(before))
        if not any(_matches(t, named, named) for t in terms(match.group(1))):
            return f"'such {match.group(1)}' refers to something the quote does not name"
    return None


@lru_cache(maxsize=100_000)
def _text_terms(text: str) -> tuple[str, ...]:
    """Terms of a question or chunk text: each is judged against many requirements."""
    return tuple(terms(text))


def verdict(pair: dict, weight: TermWeights) -> dict:
    """One verification row for a (question, requirement, chunk) triple."""
    offset = pair["char_start"] - pair["chunk_start"]
    in_chunk = pair["chunk_text"][offset : offset + pair["char_end"] - pair["char_start"]]
    question = _text_terms(pair["question"])
    quote_terms = terms(f"{pair['lead_in_quote'] or ''} {pair['exact_quote']}")
    quote_cov, matched = coverage(question, quote_terms, weight)
    chunk_cov, _ = coverage(question, _text_terms(pair["chunk_text"]), weight)
    shown = ", ".join(surface_words(pair["question"], matched)) or "none"
    covers = f"the quote covers {quote_cov:.0%} of the weight of the question's words ({shown})"
    reason, rationale = None, ""
    if in_chunk != pair["exact_quote"]:
        reason = "not_verbatim"
        rationale = "the quote is not the text of its chunk at its offsets"
    elif quote_cov >= ADDRESSES and len(matched) >= MIN_MATCHED:
        dangling = dangling_reference(pair["exact_quote"], pair["lead_in_quote"])
        if dangling:
            reason, rationale = "incomplete_quote", f"addresses the question, but {dangling}"
        else:
            rationale = covers
    elif chunk_cov >= ADDRESSES and quote_cov >= ADDRESSES / 2 and matched:
        reason = "requires_inference"
        rationale = (
            f"the surrounding chunk covers {chunk_cov:.0%} of the question but the quote "
            f"alone only {quote_cov:.0%} ({shown})"
        )
    else:
        reason = "does_not_address_question"
        rationale = covers
    return {
        "question_id": pair["question_id"],
        "requirement_id": pair["requirement_id"],
        "chunk_id": pair["chunk_id"],
        "chunk_rank": pair["chunk_rank"],
        "verified": reason is None,
        "rejection_reason": reason,
        "rationale": rationale,
        "quote_coverage": round(quote_cov, 4),
        "chunk_coverage": round(chunk_cov, 4),
        "matched_terms": matched,
        "verifier": VERIFIER,
        "score": None,  # the trained gate's: its score, threshold and model
        "threshold": None,
        "model_version": None,
    }


def verifications(pairs: pa.Table, idf: dict[str, float]) -> pa.Table:
    """A verdict for every candidate pair (columns of sql/answers/candidate_pairs.sql)."""
    weight = TermWeights.of(idf)
    rows = [verdict(pair, weight) for pair in pairs.to_pylist()]
    return pa.Table.from_pylist(rows, schema=VERIFICATIONS_SCHEMA)


class RulesVerifier:
    """The lexical gate as a `Verifier`, weighing question terms by the corpus's IDF."""

    def __init__(self, idf: dict[str, float]) -> None:
        self.idf = idf

    def verifications(self, pairs: pa.Table) -> pa.Table:
        """A verdict for every candidate pair (columns of sql/answers/candidate_pairs.sql)."""
        return verifications(pairs, self.idf)
