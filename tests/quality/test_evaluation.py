"""`groundwork eval`'s scoring on tables of a few rows: distinct documents, answers citing an
expected document, refusals, Recall@10 and MAP@10 on labelled passages; and both label formats."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from groundwork.quality.evaluation import (
    RunTables,
    distinct_documents,
    not_in_run,
    passage_scores,
    question_scores,
    summary_rows,
)
from groundwork.quality.labels import BadLabels, Label, Passage, labels

NOTICE = "A covered entity shall notify each individual within 60 calendar days after discovery"
MEDIA = "shall notify prominent media outlets serving the State or jurisdiction"


def label(question_id: str, **fields) -> Label:
    return Label.model_validate({"question_id": question_id, **fields})


def run(
    retrieved: dict[str, list[tuple[str, str]]],
    results: dict[str, str],
    cited: dict[str, list[str]] | None = None,
) -> RunTables:
    """A run's tables: each question's retrieved (doc_id, text) chunks in rank order, its
    result, and the documents its citations point to."""
    retrievals = [
        {"question_id": q, "rank": n, "chunk_id": f"{q}-{n}", "doc_id": doc, "text": text}
        for q, chunks in retrieved.items()
        for n, (doc, text) in enumerate(chunks, 1)
    ]
    return RunTables(
        retrievals=pa.Table.from_pylist(
            retrievals,
            schema=pa.schema(
                [
                    ("question_id", pa.string()),
                    ("rank", pa.int64()),
                    ("chunk_id", pa.string()),
                    ("doc_id", pa.string()),
                    ("text", pa.string()),
                ]
            ),
        ),
        answers=pa.Table.from_pylist(
            [{"question_id": q, "result": r} for q, r in results.items()],
            schema=pa.schema([("question_id", pa.string()), ("result", pa.string())]),
        ),
        cited=pa.Table.from_pylist(
            [{"question_id": q, "doc_id": d} for q, docs in (cited or {}).items() for d in docs],
            schema=pa.schema([("question_id", pa.string()), ("doc_id", pa.string())]),
        ),
    )


def test_distinct_documents_keep_the_first_rank_of_each():
    assert distinct_documents(["a", "a", "b", "a", "c"], depth=2) == ["a", "b"]


def test_the_expected_document_is_ranked_among_distinct_documents():
    chunks = [("a", "x"), ("a", "y"), ("b", "z"), ("c", "w")]
    beyond = [(f"d{i}", "x") for i in range(10)] + [("c", "w")]
    scores = question_scores(
        [
            label("Q1", expected="answerable", expected_sources=["c"]),
            label("Q2", expected="answerable", expected_sources=["c"]),
        ],
        run({"Q1": chunks, "Q2": beyond}, {"Q1": "ANSWERED", "Q2": "ANSWERED"}),
    )
    assert [s.document_rank for s in scores] == [3, None]  # Q2's is the 11th distinct


def test_answered_counts_only_when_it_cites_an_expected_document():
    labels_ = [label(q, expected="answerable", expected_sources=["a"]) for q in ("Q1", "Q2", "Q3")]
    scores = question_scores(
        labels_,
        run(
            {},
            {"Q1": "ANSWERED", "Q2": "ANSWERED", "Q3": "NO_AUTHORITATIVE_EVIDENCE"},
            {"Q1": ["a", "b"], "Q2": ["b"]},
        ),
    )
    assert [(s.cites_expected, s.correct) for s in scores] == [
        (True, True),
        (False, False),
        (False, False),
    ]
    assert [(s.citations, s.citations_expected) for s in scores] == [(2, 1), (1, 0), (0, 0)]


def test_an_unanswerable_question_is_right_when_refused():
    labels_ = [label("Q1", expected="unanswerable"), label("Q2", answerable=False)]
    scores = question_scores(
        labels_, run({}, {"Q1": "NO_AUTHORITATIVE_EVIDENCE", "Q2": "ANSWERED"}, {"Q2": ["a"]})
    )
    assert [s.correct for s in scores] == [True, False]
    assert [s.cites_expected for s in scores] == [False, False]


def test_a_passage_split_over_chunks_counts_once_at_its_first_rank():
    """A quote of a lead-in and its list item, which the chunker made two chunks."""
    listed = "A notification of a breach must contain: (a) the date of the breach;"
    passages = (Passage(doc_id="d1", quote=listed), Passage(doc_id="d2", quote=MEDIA))
    retrieved = [
        {"doc_id": "d1", "text": "(a) the date of the breach;"},
        {"doc_id": "d1", "text": "A notification of a breach must contain:"},
        {"doc_id": "d3", "text": "Unrelated text about fees."},
        {"doc_id": "d9", "text": MEDIA},  # the words, in another document
        {"doc_id": "d2", "text": f"A covered entity {MEDIA}, for a breach of 500."},
    ]
    recall, precision = passage_scores(retrieved, passages)
    assert recall == 1.0
    assert precision == pytest.approx((1 / 1 + 2 / 4) / 2)  # units: d1, d3, d9, d2


def test_a_chunk_inside_a_quote_holds_it_and_units_stop_at_the_depth():
    passages = (Passage(doc_id="d1", quote=NOTICE),)
    inside = [{"doc_id": "d1", "text": "shall notify each individual"}]
    assert passage_scores(inside, passages) == (1.0, 1.0)
    late = [{"doc_id": "d0", "text": f"other {i}"} for i in range(10)] + inside
    assert passage_scores(late, passages) == (0.0, 0.0)
    assert passage_scores(late, passages, depth=11) == (1.0, pytest.approx(1 / 11))


def test_recall_and_map_only_where_passages_are_labelled():
    labelled = label(
        "Q1", answerable=True, answers=[{"doc_id": "d1", "quote": NOTICE}], family="breach"
    )
    demo = label("Q2", expected="answerable", expected_sources=["d1"], topic="breach")
    tables = run(
        {"Q1": [("d1", NOTICE)], "Q2": [("d1", NOTICE)]},
        {"Q1": "ANSWERED", "Q2": "ANSWERED"},
        {"Q1": ["d1"], "Q2": ["d1"]},
    )
    first, second = question_scores([labelled, demo], tables)
    assert (first.recall, first.average_precision, first.passages) == (1.0, 1.0, 1)
    assert (second.recall, second.average_precision, second.passages) == (None, None, 0)
    (row,) = summary_rows([first, second])[-1:]
    assert (row["passage_labelled"], row["recall_at_10"], row["map_at_10"]) == (1, 1.0, 1.0)


def test_summary_per_group_then_all():
    labels_ = [
        label("Q1", expected="answerable", expected_sources=["a"], topic="breach"),
        label("Q2", expected="unanswerable", topic="breach"),
        label("Q3", expected="answerable", expected_sources=["b"], topic="records"),
        label("Q4", expected="answerable", expected_sources=["b"], topic="records"),
    ]
    tables = run(
        {"Q1": [("a", "x")], "Q3": [("c", "x")]},
        {"Q1": "ANSWERED", "Q2": "NO_AUTHORITATIVE_EVIDENCE", "Q3": "ANSWERED"},
        {"Q1": ["a"], "Q3": ["c"]},
    )
    rows = summary_rows(question_scores(labels_, tables))
    assert [r["group"] for r in rows] == ["breach", "records", "all"]
    picked = ("questions", "answerable", "document_in_top10", "answered")
    assert [tuple(r[k] for k in picked) for r in rows] == [(2, 1, 1, 1), (1, 1, 0, 1), (3, 2, 1, 2)]
    assert [(r["answered_citing_expected"], r["refused"]) for r in rows] == [(1, 1), (0, 0), (1, 1)]
    assert rows[-1]["recall_at_10"] is None
    assert not_in_run(labels_, tables) == ["Q4"]
    ungrouped = [label("Q1", expected="answerable", expected_sources=["a"])]
    assert [r["group"] for r in summary_rows(question_scores(ungrouped, tables))] == ["all"]


def test_both_label_formats_read(tmp_path: Path):
    demo = tmp_path / "questions.yaml"
    demo.write_text(
        "questions:\n"
        "  - question_id: Q001\n"
        "    question: When must we notify?\n"
        "    topic: breach\n"
        "    expected: answerable\n"
        "    expected_sources: [a, b]\n"
        "  - question_id: Q002\n"
        "    question: What does Texas require?\n"
        "    expected: unanswerable\n"
    )
    first, second = labels(demo)
    assert (first.answerable, first.doc_ids, first.passages, first.group) == (
        True,
        {"a", "b"},
        (),
        "breach",
    )
    assert (second.answerable, second.doc_ids) == (False, frozenset())
    plain = tmp_path / "dev.jsonl"
    plain.write_text(
        '{"id": "HIP-0001", "question": "Do we tell anyone?", "family": "hipaa-breach", '
        '"answerable": true, "answers": [{"doc_id": "a", "quote": "shall notify"}]}\n'
        '{"id": "HIP-N001", "question": "And in Texas?", "family": "hipaa-breach", '
        '"answerable": false, "near_doc_ids": ["a"]}\n'
    )
    first, second = labels(plain)
    assert (first.question_id, first.doc_ids, first.group) == ("HIP-0001", {"a"}, "hipaa-breach")
    assert first.passages == (Passage(doc_id="a", quote="shall notify"),)
    assert (second.answerable, second.doc_ids) == (False, frozenset())


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"id": "A", "answerable": "maybe"}\n', "line 1: answerable: should be answerable or"),
        ('{"id": "A", "answerable": 3}\n', "line 1: answerable: Input should be a valid boolean"),
        ('{"id": "A", "answerable": true}\n', "line 1: an answerable question names no expected"),
        ('{"id": "A", "answerable": false}\n{"id": "A", "answerable": false}\n', "line 2: dup"),
        ('{"id": "A", "answerable": false}\n[1, 2]\n', "line 2: a labelled question must be"),
        ('{"answerable": false}\n', "line 1: question_id: Field required"),
        ("{oops\n", "line 1: not JSON"),
        ("\n", "no labelled questions"),
    ],
)
def test_a_bad_label_is_named_by_its_line(tmp_path: Path, text: str, said: str):
    path = tmp_path / "labels.jsonl"
    path.write_text(text)
    with pytest.raises(BadLabels, match=None) as raised:
        labels(path)
    assert said in str(raised.value)
    assert "\n" not in str(raised.value)
