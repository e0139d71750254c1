"""The retrieve stage: BM25 against the rank-bm25 oracle, section and phrase evidence, filters,
and the shape of the retrievals table."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest
from rank_bm25 import BM25Okapi

from groundwork.retrieve import bm25 as retrieve
from groundwork.retrieve.bm25 import chunk_index, question_hits, retrievals
from groundwork.text.terms import terms
from schemas.questions import ARROW_SCHEMA
from schemas.retrievals import RETRIEVALS_SCHEMA, Retrievals
from tests.support.retrieval import FILLER, questions

SENTENCES = [
    "A covered entity shall notify each individual whose unsecured protected health information has been breached.",
    "The notification shall be provided without unreasonable delay and in no case later than 60 calendar days after discovery of a breach.",
    "A business associate shall notify the covered entity following the discovery of a breach of unsecured protected health information.",
    "An Authorised Person must maintain adequate records of each transaction for at least six years.",
    "The Regulator may impose a financial penalty on a person who contravenes these Rules.",
    "A controller shall implement appropriate technical and organisational measures to ensure a level of security appropriate to the risk.",
    "The processor shall not engage another processor without prior specific or general written authorisation of the controller.",
    "Personal data shall be kept in a form which permits identification of data subjects for no longer than is necessary.",
    "A Fund Manager must disclose to investors any material change to the investment policy of the fund.",
    "An employer shall provide each employee with written notice of the right to family and medical leave.",
    "The operator of a facility shall report any release of a hazardous substance to the state emergency response commission.",
    "A licensee must keep client money in a segregated account with an eligible bank.",
    "Every insurer shall file an annual statement of its financial condition with the commissioner by March first.",
    "The board of directors must approve the anti-money laundering policy and review it at least annually.",
    "A lender shall not charge a prepayment penalty on a qualified mortgage after three years.",
    "An Authorised Person must report a suspicious transaction to the Financial Intelligence Unit without delay.",
]


def table(rows: list[dict], filler: bool = False) -> pa.Table:
    """Chunks in the columns (and order) of sql/answers/index_chunks.sql, one document each
    unless a row names its doc_id; `filler` appends the unrelated FILLER chunks."""
    rows = rows + [
        {"text": t, "source_type": "policy", "jurisdiction": "GB"}
        for t in (FILLER if filler else [])
    ]
    full = [
        {
            "chunk_id": f"c{i:02d}",
            "doc_id": f"d{i:02d}",
            "heading": None,
            "title": f"d{i:02d}",
            "citation": None,
            "source_type": "regulation",
            "jurisdiction": None,
            **row,
        }
        for i, row in enumerate(rows)
    ]
    return pa.Table.from_pylist(full)


def question(
    text: str, source_types: list[str] | None = None, jurisdiction: str | None = None
) -> dict:
    return questions(text, source_types=source_types, jurisdiction=jurisdiction).to_pylist()[0]


@pytest.fixture(scope="module")
def corpus_tokens() -> list[list[str]]:
    return [terms(s) for s in SENTENCES]


class LuceneOkapi(BM25Okapi):
    """rank-bm25's Okapi BM25 with Lucene's idf, log(1 + (N - df + 0.5) / (df + 0.5)), the one
    the retriever uses (its own idf floors a term in half of the documents or more at a share of
    the mean idf)."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        n = self.corpus_size
        self.idf = {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t, df in nd.items()}


@pytest.fixture(scope="module")
def oracle(corpus_tokens) -> BM25Okapi:
    return LuceneOkapi(corpus_tokens, k1=retrieve.K1, b=retrieve.B)


QUERIES = [
    "When must a covered entity notify individuals of a breach of health information?",
    "What records must an Authorised Person keep, and for how long?",
    "Can the Regulator impose a financial penalty?",
    "Who must approve the anti-money laundering policy?",
    "security measures of the controller and the processor",
    "report a suspicious transaction or a hazardous release",
    "written notice to the employee",
]


@pytest.mark.parametrize("text", QUERIES)
def test_field_scores_equal_rank_bm25(text, corpus_tokens, oracle):
    query = terms(text)
    ours = retrieve.Field(corpus_tokens).scores(query)
    expected = oracle.get_scores(query)
    assert expected.max() > 0
    # bm25s leaves out the constant (k1 + 1) of the term-frequency part: same order, scaled
    np.testing.assert_allclose(ours * (retrieve.K1 + 1), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("text", QUERIES)
def test_top_k_equals_rank_bm25_with_the_extras_off(text, oracle, monkeypatch):
    """One chunk per document, no header: its section is itself, so without term pairs the
    retriever's ranking is plain BM25 over the chunk texts."""
    monkeypatch.setattr(retrieve, "PAIR_WEIGHT", 0.0)
    index = chunk_index(table([{"text": s} for s in SENTENCES]))
    hits = question_hits(index, question(text), top_k=5)
    expected = oracle.get_scores(terms(text))
    order = sorted(range(len(SENTENCES)), key=lambda i: (-expected[i], i))
    wanted = [i for i in order if expected[i] > 0][:5]
    assert [pos for pos, _ in hits] == wanted
    np.testing.assert_allclose(
        [s * (retrieve.K1 + 1) for _, s in hits], expected[wanted], rtol=1e-5
    )


def test_adjacent_terms_rank_a_phrase_above_scattered_words():
    """Same terms, same lengths: only the word order differs, and the phrase comes second."""
    index = chunk_index(
        table(
            [
                {"text": "The investment of the fund must state the annual policy report."},
                {"text": "The annual report of the fund must state the investment policy."},
            ],
            filler=True,
        )
    )
    hits = question_hits(index, question("What must the annual report state?"), top_k=3)
    assert [pos for pos, _ in hits] == [1, 0]
    assert hits[0][1] > hits[1][1]


def test_a_list_item_is_found_through_its_section_lead_in():
    """ "(b) a description of the steps taken" says nothing about notification; its section does."""
    rows = [
        {"doc_id": "d0", "text": "A notification of a breach to the Regulator must contain:"},
        {"doc_id": "d0", "text": "(a) the date of the event;"},
        {"doc_id": "d0", "text": "(b) a description of the steps taken."},
        {
            "doc_id": "d1",
            "text": "The steps taken to approve a new product are described in Chapter 4.",
        },
    ]
    index = chunk_index(table(rows, filler=True))
    hits = question_hits(
        index, question("What steps taken must a breach notification describe?"), 4
    )
    ranked = [index.chunk_ids[pos] for pos, _ in hits]
    assert ranked.index("c02") < ranked.index("c03")
    assert "c01" in ranked  # only its section shares terms with the question


def test_sections_break_at_documents_and_headings():
    rows = [
        {
            "doc_id": "d0",
            "heading": "Scope",
            "text": "These Rules apply to every Authorised Person.",
        },
        {
            "doc_id": "d0",
            "heading": "Scope",
            "text": "They do not apply to a Representative Office.",
        },
        {"doc_id": "d0", "heading": "Records", "text": "Records must be kept for six years."},
        {"doc_id": "d1", "heading": "Records", "text": "A licensee must keep client money apart."},
    ]
    section_of, corpus = retrieve.sections(table(rows).to_pylist())
    assert section_of.tolist() == [0, 0, 1, 2]
    assert corpus[0].count("scope") == 1  # the heading once, not once per chunk
    assert "repres" in corpus[0] and "repres" not in corpus[1]


def test_a_doc_id_title_is_not_indexed_but_a_real_title_is():
    rows = [
        {"text": "Fees are payable annually.", "title": "d00", "citation": "FEES 3.1"},
        {"text": "Fees are payable annually.", "title": "Fees Rules", "citation": None},
    ]
    full = table(rows).to_pylist()
    assert "d00" not in retrieve.indexed_text(full[0])
    assert "FEES 3.1" in retrieve.indexed_text(full[0])
    assert retrieve.indexed_text(full[1]).startswith("Fees Rules")


FILTERED = [
    {
        "text": "An employer shall give written notice of medical leave.",
        "source_type": "statute",
        "jurisdiction": "US-CA",
    },
    {
        "text": "An employer shall give written notice of medical leave.",
        "source_type": "statute",
        "jurisdiction": "US-CA-SF",
    },
    {
        "text": "An employer shall give written notice of medical leave.",
        "source_type": "policy",
        "jurisdiction": "US-CA",
    },
    {
        "text": "An employer shall give written notice of medical leave.",
        "source_type": "statute",
        "jurisdiction": "US-CO",
    },
    {
        "text": "An employer shall give written notice of medical leave.",
        "source_type": "statute",
        "jurisdiction": None,
    },
    {
        "text": "An employer shall give written notice of medical leave.",
        "source_type": "statute",
        "jurisdiction": "US",
    },
]


@pytest.mark.parametrize(
    ("source_types", "jurisdiction", "expected"),
    [
        ([], None, {"c00", "c01", "c02", "c03", "c04", "c05"}),
        (["statute"], None, {"c00", "c01", "c03", "c04", "c05"}),
        (["policy"], None, {"c02"}),
        (["policy", "statute"], None, {"c00", "c01", "c02", "c03", "c04", "c05"}),
        ([], "US-CA", {"c00", "c01", "c02"}),
        (["statute"], "US-CA", {"c00", "c01"}),
        ([], "US-CA-SF", {"c01"}),
        (["regulation"], None, set()),
        ([], "EU", set()),
    ],
)
def test_filters_by_source_type_and_jurisdiction_prefix(source_types, jurisdiction, expected):
    index = chunk_index(table(FILTERED, filler=True))
    hits = question_hits(
        index, question("written notice of medical leave", source_types, jurisdiction), top_k=10
    )
    assert {index.chunk_ids[pos] for pos, _ in hits} == expected


def test_filters_apply_before_the_top_k_cut():
    """The best chunk of the wanted type is returned even when better chunks are filtered out."""
    rows = [
        {
            "text": "Medical leave notice: written notice of medical leave, notice of leave.",
            "source_type": "statute",
        }
    ] * 5 + [{"text": "Leave may be taken after written notice.", "source_type": "policy"}]
    index = chunk_index(table(rows, filler=True))
    hits = question_hits(index, question("written notice of medical leave", ["policy"]), top_k=1)
    assert [index.chunk_ids[pos] for pos, _ in hits] == ["c05"]


def test_no_hit_has_a_zero_score_even_when_top_k_is_larger():
    index = chunk_index(table([{"text": s} for s in SENTENCES]))
    hits = question_hits(index, question("hazardous substance release"), top_k=10)
    assert [index.chunk_ids[pos] for pos, _ in hits] == ["c10"]
    assert question_hits(index, question("quantum chromodynamics lattice"), top_k=10) == []
    assert question_hits(index, question("what is it?"), top_k=10) == []  # stop words only


def test_retrievals_table_ranks_from_one_with_positive_scores():
    index = chunk_index(table([{"text": s} for s in SENTENCES]))
    out = retrievals(questions(*QUERIES, "nothing matches zzzz"), index, top_k=4)
    assert out.schema == RETRIEVALS_SCHEMA
    Retrievals.validate(out.to_pandas())
    assert set(out["retriever"].to_pylist()) == {retrieve.RETRIEVER}
    by_question: dict[str, list[tuple[int, float]]] = {}
    for row in out.to_pylist():
        by_question.setdefault(row["question_id"], []).append((row["rank"], row["score"]))
        assert row["doc_id"] == "d" + row["chunk_id"][1:]
    assert set(by_question) == {f"q{i}" for i in range(len(QUERIES))}
    for ranked in by_question.values():
        assert [r for r, _ in ranked] == list(range(1, len(ranked) + 1))
        assert all(s > 0 for _, s in ranked)
        assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
        assert len(ranked) <= 4


def test_equal_scores_keep_index_order_at_the_cut():
    index = chunk_index(table([{"text": "Records must be kept."}] * 4, filler=True))
    hits = question_hits(index, question("records kept"), top_k=4)
    assert [pos for pos, _ in hits] == [0, 1, 2, 3]


def test_idf_is_positive_and_rarer_terms_weigh_more():
    index = chunk_index(table([{"text": s} for s in SENTENCES]))
    assert all(v > 0 for v in index.idf.values())
    assert index.idf[terms("hazardous")[0]] > index.idf[terms("breach")[0]]


def test_an_empty_run_has_no_retrievals():
    index = chunk_index(table([]))
    assert index.idf == {}
    assert retrievals(questions("Who must notify?"), index, top_k=10).num_rows == 0


def test_each_question_in_a_batch_keeps_its_own_filters():
    index = chunk_index(table(FILTERED, filler=True))
    rows = [
        {
            "question_id": qid,
            "question": "written notice of medical leave",
            "topic": None,
            "category": None,
            "source_types": types,
            "jurisdiction": where,
        }
        for qid, types, where in [
            ("all", [], None),
            ("policy", ["policy"], None),
            ("sf", [], "US-CA-SF"),
            ("policy2", ["policy"], None),
        ]
    ]
    out = retrievals(pa.Table.from_pylist(rows, schema=ARROW_SCHEMA), index, top_k=10)
    found: dict[str, set[str]] = {}
    for row in out.to_pylist():
        found.setdefault(row["question_id"], set()).add(row["chunk_id"])
    assert found == {
        "all": {f"c{i:02d}" for i in range(6)},
        "policy": {"c02"},
        "sf": {"c01"},
        "policy2": {"c02"},
    }
