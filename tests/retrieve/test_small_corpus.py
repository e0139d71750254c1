"""Retrieval finds candidates in a corpus of one, two or three documents as in a large one: a term
in half of the documents or more still weighs something (Lucene's idf, groundwork/retrieve/bm25.py),
where Robertson's idf gave every term of a one-document corpus a weight of zero."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.retrieve.bm25 import Bm25Retriever
from schemas.questions import ARROW_SCHEMA

QUESTION = "Who must the privacy officer notify after a breach, and how fast?"
PRIVACY = "The privacy officer shall notify the board within 5 days of any breach of customer data."
# Neighbours that share two of the question's words ("officer", "breach", in every document
# then, as "privacy" is through the title): Robertson's idf gave such terms no weight at all.
NEIGHBOURS = [
    "The records officer shall log every breach of the building's alarms.",
    "Staff shall report a breach of the dress code to their duty officer.",
]


def chunks(texts: list[str]) -> pa.Table:
    """One chunk per document, in the columns of sql/answers/index_chunks.sql."""
    return pa.Table.from_pylist(
        [
            {
                "chunk_id": f"c{i}",
                "doc_id": f"d{i}",
                "heading": None,
                "title": "Privacy policy",
                "citation": None,
                "source_type": "policy",
                "jurisdiction": None,
                "text": text,
            }
            for i, text in enumerate(texts)
        ]
    )


def asked(text: str) -> pa.Table:
    row = {
        "question_id": "Q1",
        "question": text,
        "topic": None,
        "category": None,
        "source_types": [],
        "jurisdiction": None,
    }
    return pa.Table.from_pylist([row], schema=ARROW_SCHEMA)


@pytest.mark.parametrize("documents", [1, 2, 3])
def test_the_answering_document_is_retrieved_first_in_a_tiny_corpus(documents: int):
    corpus = [PRIVACY, *NEIGHBOURS][:documents]
    found = Bm25Retriever(chunks(corpus)).retrievals(asked(QUESTION), top_k=10).to_pylist()
    assert [r["doc_id"] for r in found][:1] == ["d0"]
    assert len(found) == documents  # each shares a term with the question: each is a candidate
    assert all(r["score"] > 0 for r in found)


def test_a_tiny_corpus_still_retrieves_nothing_for_unrelated_words():
    found = Bm25Retriever(chunks([PRIVACY])).retrievals(asked("quantum lattice gauge"), top_k=10)
    assert found.num_rows == 0


@pytest.mark.slow
@pytest.mark.usefixtures("prefect_harness")
def test_a_one_document_corpus_answers_the_question(tmp_path: Path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "privacy.md").write_text(
        f"---\ndoc_id: privacy-policy\ntitle: Privacy policy\nsource_type: policy\n---\n\n{PRIVACY}\n"
    )
    questions = tmp_path / "questions.yaml"
    questions.write_text(f"questions:\n  - question_id: Q1\n    question: {QUESTION}\n")
    warehouse = tmp_path / "wh"
    run = CliRunner().invoke(
        app,
        ["run", "--corpus", str(corpus), "--questions", str(questions), "-w", str(warehouse)],
    )
    assert run.exit_code == 0, run.output
    cited = CliRunner().invoke(
        app,
        [
            "sql",
            "SELECT a.result, c.requirement_id FROM current_answers a "
            "JOIN current_citations c USING (question_id)",
            "-w",
            str(warehouse),
            "-f",
            "csv",
        ],
    )
    assert cited.exit_code == 0, cited.output
    assert cited.output.splitlines()[1:] == ["ANSWERED,REQ-P0001"]
