"""The relevance model's plain-language pairs: (question, requirement) exactly as the grounding
gate reads them at run time, labelled against the questions' verbatim answers.

A `groundwork run --questions data/plain-questions/<split>.jsonl` over ../shared/corpus
retrieves chunks for each question; sql/answers/candidate_pairs.sql turns them into the
(question, requirement) pairs the gate judges, and `gate_text` (groundwork/verify/trained.py)
into the text the model reads. Both are reused here, not copied: a pair trained on is a pair
the gate sees.

Label: a pair is positive when its requirement is in one of the question's expected documents
and its quote overlaps one of that document's answer quotes: compared as lower-case word
sequences, the longest run of words the two share covers at least half of the shorter of the two
and is at least RUN words long (or the whole shorter one). So a list item under an answer's
lead-in, a clause of a longer requirement, or a sentence the extractor cut differently counts;
another sentence of the same section that shares the answer's words ("a health plan") does not.
Everything else is negative: the run's other candidates
for the question (other duties of the same document, other documents) and every candidate of a
near-miss question. The positives the retrieval missed (requirements of an expected document
overlapping an answer quote, not among the candidates) are added, built by the same SQL through
a retrievals relation of their chunks, so that the model learns the answers it was not shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

import pyarrow as pa

from groundwork.verify.trained import gate_text
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import Sql, literal_sql
from groundwork.warehouse.store import Warehouse

RUN = 6  # words of a shared run that make an overlap (fewer only when a quote is shorter)
MISSED_RANK = 0  # chunk_rank of a positive the run did not retrieve
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Pair:
    """One (question, requirement) pair as the gate reads it, and its label."""

    question_id: str
    question: str
    requirement_id: str
    doc_id: str
    text: str  # gate_text: context line, then the quote after its lead-in
    positive: bool
    retrieved: bool  # among the run's candidates (False: a positive the retrieval missed)
    answerable: bool


def words(text: str) -> list[str]:
    """The lower-case words of a text, in order."""
    return _WORD.findall(text.lower())


def answers_it(quote: str, answers: list[str]) -> bool:
    """Whether a requirement's quote overlaps one of the answer quotes (module docstring)."""
    mine = words(quote)
    for answer in answers:
        theirs = words(answer)
        shorter = min(len(mine), len(theirs))
        match = SequenceMatcher(None, mine, theirs, autojunk=False).find_longest_match()
        if shorter and match.size >= max(0.5 * shorter, min(RUN, shorter)):
            return True
    return False


def published_run(warehouse: Warehouse) -> str:
    """The run whose verifications are published."""
    with warehouse.connect(read_only=True) as con:
        (run,) = con.execute(
            "SELECT run_id FROM publications WHERE table_name = 'verifications'"
        ).fetchone()
    return run


def candidate_rows(folder: Path, missed: pa.Table | None = None) -> list[dict]:
    """The gate's candidate pairs (sql/answers/candidate_pairs.sql) of the published run in
    `folder`; with `missed` (question_id, rank, chunk_id), those of its chunks instead."""
    warehouse = Warehouse(folder)
    run = published_run(warehouse)
    with warehouse.connect(read_only=True) as con:
        parts = run_parts(warehouse, run, "retrievals", "questions", "chunks", "requirements")
        if missed is not None:
            con.register("missed_chunks", missed)
            parts["retrievals"] = Sql("missed_chunks")
        return (
            con.execute(literal_sql("answers/candidate_pairs", **parts))
            .to_arrow_table()
            .to_pylist()
        )


def requirement_chunks(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """doc_id -> (chunk_id, exact_quote) of each of its requirements in the published run."""
    warehouse = Warehouse(folder)
    run = published_run(warehouse)
    with warehouse.connect(read_only=True) as con:
        parts = run_parts(warehouse, run, "requirements")
        rows = con.execute(
            f"SELECT doc_id, chunk_id, exact_quote FROM {parts['requirements']}"
        ).fetchall()
    found: dict[str, list[tuple[str, str]]] = {}
    for doc_id, chunk_id, quote in rows:
        found.setdefault(doc_id, []).append((chunk_id, quote))
    return found


def expected_answers(question: dict) -> dict[str, list[str]]:
    """doc_id -> the question's answer quotes in it (none for a near-miss)."""
    found: dict[str, list[str]] = {}
    for answer in question.get("answers", []):
        found.setdefault(answer["doc_id"], []).append(answer["quote"])
    return found


def labelled_pair(row: dict, question: dict, retrieved: bool) -> Pair:
    """A candidate row as a labelled pair."""
    quotes = expected_answers(question).get(row["doc_id"], [])
    return Pair(
        question_id=row["question_id"],
        question=row["question"],
        requirement_id=row["requirement_id"],
        doc_id=row["doc_id"],
        text=gate_text(row),
        positive=answers_it(row["exact_quote"], quotes),
        retrieved=retrieved,
        answerable=bool(question["answerable"]),
    )


def plain_pairs(folder: Path, questions: list[dict]) -> list[Pair]:
    """Every labelled pair of a run over the plain-language questions: the run's candidates,
    then the positives it missed."""
    by_id = {q["id"]: q for q in questions}
    pairs = [labelled_pair(r, by_id[r["question_id"]], True) for r in candidate_rows(folder)]
    seen = {(p.question_id, p.requirement_id) for p in pairs}
    quotes = requirement_chunks(folder)
    missed = []
    for q in questions:
        for doc_id, answers in expected_answers(q).items():
            missed += [
                {"question_id": q["id"], "rank": MISSED_RANK, "chunk_id": chunk_id}
                for chunk_id, quote in quotes.get(doc_id, [])
                if answers_it(quote, answers)
            ]
    if not missed:
        return pairs
    chunks = pa.Table.from_pylist(list({tuple(m.values()): m for m in missed}.values()))
    for row in candidate_rows(folder, chunks):
        pair = labelled_pair(row, by_id[row["question_id"]], False)
        if pair.positive and (pair.question_id, pair.requirement_id) not in seen:
            seen.add((pair.question_id, pair.requirement_id))
            pairs.append(pair)
    return pairs


def rules_accepted(folder: Path) -> set[tuple[str, str]]:
    """(question_id, requirement_id) of every pair the run's own gate (the rules) verified."""
    warehouse = Warehouse(folder)
    run = published_run(warehouse)
    with warehouse.connect(read_only=True) as con:
        parts = run_parts(warehouse, run, "verifications")
        rows = con.execute(
            f"SELECT question_id, requirement_id FROM {parts['verifications']} WHERE verified"
        ).fetchall()
    return {(q, r) for q, r in rows}
