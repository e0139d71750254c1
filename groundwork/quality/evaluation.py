"""A run scored against labelled questions (groundwork/quality/labels.py): `groundwork eval`.

For an answerable question: is an expected document among the first 10 distinct documents
retrieved (the retrievals table's doc_id, in rank order); is it ANSWERED, citing an expected
document; and where its passages are labelled (a quote verbatim in a document), Recall@10 and
MAP@10 on distinct passages. For an unanswerable one: is it refused (NO_AUTHORITATIVE_EVIDENCE).

Passages are labelled by quote, retrieved as chunks: a retrieved chunk of the quote's document
holds the passage when the chunk holds the quote's first or last eight words, or the quote holds
the whole chunk, of three words or more (a quote the chunker split, a list item under its
lead-in), compared as lower-case word sequences. The ranking is of distinct units, as ObliQA's
metrics rank distinct passages: a chunk holding a labelled passage counts once, at the rank of
the first chunk that holds it; a chunk holding none is a unit of its own. MAP@10 is trec_eval's
map_cut_10 on those units.

Reading the run's tables (`run_tables`) is the only part that touches a warehouse; the scoring
takes plain Arrow tables in and gives rows out, so tests hold it on tables of a few rows.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import duckdb
import pyarrow as pa

from groundwork.quality.labels import Label, Passage
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import literal_sql
from groundwork.warehouse.store import Warehouse

TOP = 10  # the first 10 distinct documents, Recall@10, MAP@10
ANSWERED, REFUSED = "ANSWERED", "NO_AUTHORITATIVE_EVIDENCE"
EDGE_WORDS = 8  # how many of a quote's first or last words a chunk must hold
ALL = "all"  # the summary row over every group
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class RunTables:
    """What a run did with its questions, as sql/eval/ reads it: `retrievals` (question_id, rank,
    chunk_id, doc_id, text), `answers` (question_id, result), `cited` (question_id, doc_id: one
    row per citation)."""

    retrievals: pa.Table
    answers: pa.Table
    cited: pa.Table


def run_tables(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str) -> RunTables:
    """A run's retrievals, answers and cited documents, from its Parquet tables."""
    parts = run_parts(
        warehouse, run_id, "retrievals", "chunks", "answers", "citations", "requirements"
    )

    def table(name: str) -> pa.Table:
        return con.execute(literal_sql(f"eval/{name}", **parts)).to_arrow_table()

    return RunTables(table("retrievals"), table("answers"), table("cited_documents"))


@dataclass(frozen=True)
class QuestionScore:
    """One labelled question's outcome in a run. `document_rank` is the rank of the first
    expected document among the distinct documents retrieved (None: not in the first 10);
    `recall` and `average_precision` are None where no passage is labelled; `correct` is
    answered citing an expected document (answerable) or refused (unanswerable)."""

    question_id: str
    group: str | None
    answerable: bool
    result: str | None
    document_rank: int | None
    cites_expected: bool
    citations: int
    citations_expected: int
    passages: int
    recall: float | None
    average_precision: float | None
    correct: bool


def _words(text: str | None) -> str:
    """Lower-case words joined by single spaces, padded, so that `in` matches whole words."""
    return " " + " ".join(_WORD.findall((text or "").lower())) + " "


def _holds(chunk: str, quote: str) -> bool:
    """Whether a chunk's words (`_words`) hold a labelled passage's (module docstring)."""
    words = quote.split()
    head = " " + " ".join(words[:EDGE_WORDS]) + " "
    tail = " " + " ".join(words[-EDGE_WORDS:]) + " "
    return head in chunk or tail in chunk or (len(chunk.split()) >= 3 and chunk in quote)


def distinct_documents(doc_ids: Iterable[str], depth: int = TOP) -> list[str]:
    """The first `depth` distinct documents of a ranking, in order."""
    return list(dict.fromkeys(doc_ids))[:depth]


def passage_scores(
    retrieved: list[dict], passages: tuple[Passage, ...], depth: int = TOP
) -> tuple[float, float]:
    """Recall@depth and average precision@depth (map_cut) of one question's retrieved chunks
    (rank order; doc_id and text) against its labelled passages, on distinct units."""
    quotes = [(p.doc_id, _words(p.quote)) for p in passages]
    found: set[int] = set()
    units = hits = 0
    precision_sum = 0.0
    for chunk in retrieved:
        if units == depth:
            break
        text = _words(chunk["text"])
        held = {
            i
            for i, (doc_id, quote) in enumerate(quotes)
            if doc_id == chunk["doc_id"] and _holds(text, quote)
        }
        if held and held <= found:
            continue  # a passage already ranked: not a unit of its own
        units += 1
        if held:
            hits += 1
            precision_sum += len(held - found) * hits / units
            found |= held
    return len(found) / len(quotes), precision_sum / len(quotes)


def _by_question(table: pa.Table) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in table.to_pylist():
        grouped[row["question_id"]].append(row)
    return grouped


def question_scores(labels: list[Label], run: RunTables) -> list[QuestionScore]:
    """The outcome of each labelled question the run answered, in the labels' order."""
    results = {r["question_id"]: r["result"] for r in run.answers.to_pylist()}
    retrieved = _by_question(run.retrievals)
    cited = _by_question(run.cited)
    scores = []
    for label in labels:
        if label.question_id not in results:
            continue
        ranking = retrieved.get(label.question_id, [])
        documents = distinct_documents(r["doc_id"] for r in ranking)
        ranks = [n for n, d in enumerate(documents, 1) if d in label.doc_ids]
        cited_docs = [c["doc_id"] for c in cited.get(label.question_id, [])]
        expected_citations = sum(d in label.doc_ids for d in cited_docs)
        result = results[label.question_id]
        cites_expected = result == ANSWERED and expected_citations > 0
        passages = label.passages
        recall, precision = passage_scores(ranking, passages) if passages else (None, None)
        scores.append(
            QuestionScore(
                question_id=label.question_id,
                group=label.group,
                answerable=label.answerable,
                result=result,
                document_rank=ranks[0] if ranks else None,
                cites_expected=cites_expected,
                citations=len(cited_docs),
                citations_expected=expected_citations,
                passages=len(passages),
                recall=recall,
                average_precision=precision,
                correct=cites_expected if label.answerable else result == REFUSED,
            )
        )
    return scores


def not_in_run(labels: list[Label], run: RunTables) -> list[str]:
    """The labelled questions the run has no answer to (asked from another file, or rejected)."""
    answered = set(run.answers.column("question_id").to_pylist())
    return [label.question_id for label in labels if label.question_id not in answered]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _summary(group: str, scores: list[QuestionScore]) -> dict:
    answerable = [s for s in scores if s.answerable]
    unanswerable = [s for s in scores if not s.answerable]
    labelled = [s for s in answerable if s.recall is not None]
    return {
        "group": group,
        "questions": len(scores),
        "answerable": len(answerable),
        "document_in_top10": sum(s.document_rank is not None for s in answerable),
        "answered": sum(s.result == ANSWERED for s in answerable),
        "answered_citing_expected": sum(s.cites_expected for s in answerable),
        "citations": sum(s.citations for s in answerable),
        "citations_into_expected": sum(s.citations_expected for s in answerable),
        "passage_labelled": len(labelled),
        "recall_at_10": _mean([s.recall for s in labelled if s.recall is not None]),
        "map_at_10": _mean(
            [s.average_precision for s in labelled if s.average_precision is not None]
        ),
        "unanswerable": len(unanswerable),
        "refused": sum(s.result == REFUSED for s in unanswerable),
    }


def summary_rows(scores: list[QuestionScore]) -> list[dict]:
    """Counts per group (family or topic), in sorted order, then over all questions; one row,
    `all`, when no question has a group."""
    groups: dict[str, list[QuestionScore]] = defaultdict(list)
    for score in scores:
        if score.group is not None:
            groups[score.group].append(score)
    return [_summary(g, groups[g]) for g in sorted(groups)] + [_summary(ALL, scores)]


def score_records(scores: list[QuestionScore]) -> list[dict]:
    """The per-question outcomes as plain records (JSON, the --details listing)."""
    return [asdict(s) for s in scores]
