"""Chunks: exact offsets, section boundaries, the size cap, and no sentence cut in two."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from groundwork.text.chunks import chunks, document_chunks
from groundwork.text.sentences import sentence_spans
from tests.support.texts import CFR


def test_chunk_text_is_the_document_slice_and_starts_at_sections():
    rows = document_chunks("d", "45 CFR § 164.308", CFR, max_chars=1500)
    assert [r["label_path"] for r in rows] == ["164.308(a)", "164.308(b)(1)"]
    for r in rows:
        assert CFR[r["char_start"] : r["char_end"]] == r["text"]
    assert rows[0]["text"].startswith("# § 164.308")


def test_size_cap_splits_at_paragraphs_then_sentences():
    sentence = "The covered entity must keep a written record of each disclosure. "
    long_paragraph = "(a) " + sentence * 30
    text = "# T\n\n" + long_paragraph.strip() + "\n\n(b) Short paragraph that must stay whole."
    rows = document_chunks("d", None, text, max_chars=400)
    assert len(rows) > 3
    assert all(len(r["text"]) <= 400 for r in rows)
    starts = {s for s, _ in sentence_spans(text)}
    assert all(r["char_start"] in starts or text[r["char_start"]] in "#(" for r in rows)
    assert rows[-1]["text"] == "(b) Short paragraph that must stay whole."


def test_batch_of_documents():
    table = chunks(
        pa.table(
            {
                "doc_id": ["a", "b"],
                "citation": [None, None],
                "text": ["One paragraph.", "(a) First.\n\n(b) Second."],
            }
        ),
        1500,
    )
    assert table.column("chunk_id").to_pylist() == ["a#0000", "b#0000", "b#0001"]


paragraph_text = st.lists(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=300),
    max_size=12,
).map("\n\n".join)


@settings(max_examples=200, deadline=None)
@given(text=paragraph_text, cap=st.integers(min_value=200, max_value=2000))
def test_chunks_are_exact_ordered_and_disjoint(text: str, cap: int):
    rows = document_chunks("d", None, text, max_chars=cap)
    previous_end = 0
    for r in rows:
        assert text[r["char_start"] : r["char_end"]] == r["text"]
        assert r["char_start"] >= previous_end
        assert r["text"] == r["text"].strip() and r["text"]
        previous_end = r["char_end"]
    assert " ".join(r["text"] for r in rows).split() == text.split()
