"""Questions that name what the corpus never mentions.

A question asked "under the GDPR" or "under CAN-SPAM" is about a law the corpus does not hold,
however close the words of a quote about breach notices or marketing e-mail come: no quote can
answer it, and a gate that reads meaning finds such near neighbours plausible. So an acronym of
the question that no active document uses, neither written as it is nor spelled out (words with
its initials: "PHI" is "protected health information", "GLBA" the "Gramm-Leach-Bliley Act"),
rejects every candidate of the question, with that reason in words (scope.py). So does a state's
law it asks about by name ("Under Texas medical records privacy law, ...") where no active
document is that state's law and none mentions the name: federal quotes about training staff do
not say what Texas requires. So does a provision it cites ("42 CFR 482.13", "NIST 800-63B") that
no active document is or mentions (citations.py). An acronym that is a word of the chunks the run
retrieves from (the retrieval index's vocabulary) is known without a look at the texts; the
others, and each provision, cost one scan of the documents' text each, and a run's questions
name few.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container, Iterable
from functools import lru_cache

import duckdb
import pyarrow as pa

from groundwork.models.inference import MODELS_DIR
from groundwork.models.relevance import DENSE
from groundwork.text.terms import terms
from groundwork.verify.citations import question_citations
from groundwork.verify.jurisdictions import named_state_laws, named_states, state_of
from groundwork.warehouse.sqlfiles import query

# "GDPR", "CAN-SPAM", "ICD-10", "HHS": groups of two or more capitals, joined by hyphens, a number
# group among them; an identifier such as "REQ-S9999" is none.
_ACRONYM = re.compile(r"(?<![\w-])[A-Z]{2,}(?:-(?:[A-Z]{2,}|\d+))*(?![\w-])")
# Words an acronym's initials skip: "Department of Health and Human Services" is "HHS".
_FILLERS = "(?:(?:of|and|the|for|on|in|to|a|an|or|&)\\W+)*"


@lru_cache(maxsize=1)
def _words() -> frozenset[str]:
    """The whole words of the dense encoder's vocabulary: English words and the abbreviations
    common enough to be one ("yes", "system", "fda"), where "gdpr" and "hipaa" are not."""
    tokenizer = json.loads((MODELS_DIR / DENSE / "tokenizer.json").read_text(encoding="utf-8"))
    return frozenset(word for word in tokenizer["model"]["vocab"] if word.isalpha())


def question_acronyms(question: str) -> list[str]:
    """The acronyms a question names, each once, in order; a word in capitals ("answer YES",
    "SYSTEM:") is none."""
    found = dict.fromkeys(_ACRONYM.findall(question))
    return [acronym for acronym in found if acronym.lower() not in _words()]


def written_pattern(acronym: str) -> str:
    """An RE2 pattern of the acronym as written, a whole word in any case ("ICD-10" also in
    "ICD-10-CM"), as the index's vocabulary holds words."""
    return rf"(?i)\b{re.escape(acronym)}\b"


def spelled_pattern(acronym: str) -> str:
    """An RE2 pattern (case-insensitive) of words with the acronym's initials in order, with
    "of", "and", "the" ... between them skipped; for one holding a digit, the written pattern."""
    letters = acronym.replace("-", "")
    if not letters.isalpha():
        return written_pattern(acronym)
    words = f"[\\w'’]*\\W+{_FILLERS}".join(re.escape(letter) for letter in letters)
    return f"(?i)\\b{words}[\\w'’]*"


def held_states(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The postal codes of the states whose law some active document is."""
    return {
        state
        for (code,) in query(con, "answers/corpus_jurisdictions").fetchall()
        if (state := state_of(code))
    }


def unheld_state_laws(laws: list[str], held: set[str]) -> list[str]:
    """Those of `laws` (a question's, `named_state_laws`) of a state no active document is the
    law of."""
    return [law for law in laws if not named_states(law) & held]


def absent_acronyms(
    con: duckdb.DuckDBPyConnection, acronyms: Iterable[str], vocabulary: Container[str]
) -> set[str]:
    """Those of `acronyms` (or a state's law, by its name) that no active document mentions,
    written (in its citation or its text) or spelled out (in its text). One that is a term of
    `vocabulary` (the index's, lower-case stems) is mentioned without a look: the vocabulary
    only spares the scan, it decides nothing the texts would not."""
    absent = set()
    for acronym in set(acronyms):
        known = terms(acronym) == [acronym.lower()] and acronym.lower() in vocabulary
        if known:
            continue
        written = written_pattern(acronym)
        if not mentioned(con, written, either(written, spelled_pattern(acronym))):
            absent.add(acronym)
    return absent


def unheld_citations(con: duckdb.DuckDBPyConnection, cited: dict[str, str]) -> set[str]:
    """Those of the provisions `cited` (as a question writes one -> its pattern,
    `question_citations`) that no active document is or mentions."""
    return {name for name, pattern in cited.items() if not mentioned(con, pattern, pattern)}


def mentioned(con: duckdb.DuckDBPyConnection, in_citation: str, in_text: str) -> bool:
    """Whether an active document's citation matches the RE2 pattern `in_citation`, or its text
    `in_text`: one scan of the texts."""
    asked = {"in_citation": in_citation, "in_text": in_text}
    return query(con, "answers/mentioned", asked).fetchone()[0]


def either(*patterns: str) -> str:
    """One case-insensitive RE2 pattern matching what any of `patterns` matches (each written
    "(?i)...", as this module builds them)."""
    return "(?i)" + "|".join(f"(?:{p.removeprefix('(?i)')})" for p in patterns)


def absent_names(
    con: duckdb.DuckDBPyConnection, questions: pa.Table, vocabulary: Container[str]
) -> dict[str, list[str]]:
    """Question ID -> the acronyms, states' laws and provisions it names that the corpus never
    mentions (questions naming none are left out)."""
    asked = dict(
        zip(questions["question_id"].to_pylist(), questions["question"].to_pylist(), strict=True)
    )  # a question once, however many rows (candidate pairs) carry it
    laws = {qid: named_state_laws(text) for qid, text in asked.items()}
    held = held_states(con) if any(laws.values()) else set()
    named = {
        qid: question_acronyms(text) + unheld_state_laws(laws[qid], held)
        for qid, text in asked.items()
    }
    absent = absent_acronyms(con, (a for found in named.values() for a in found), vocabulary)
    cited = {qid: question_citations(text) for qid, text in asked.items()}
    absent |= unheld_citations(con, {n: p for found in cited.values() for n, p in found.items()})
    return {
        qid: missing
        for qid, found in named.items()
        if (missing := [a for a in [*found, *cited[qid]] if a in absent])
    }


_REASON = "the question names {}, which no document of the corpus mentions"
# The names back from a rationale, for the answer's missing evidence (an RE2 pattern that
# sql/answers/rejection_counts.sql applies; the reason holds no regular-expression syntax).
NAMED_PATTERN = "^" + _REASON.replace("{}", "(.+?)")


def absent_reason(names: list[str]) -> str:
    """Why a question's candidates were all rejected for what it names, in words."""
    return _REASON.format(", ".join(names))
