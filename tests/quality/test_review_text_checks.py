"""The review checks that read the document text at a requirement's offsets read it from the
requirement's chunk when the span lies inside it (sql/review/placed_requirements.sql), and from
the document otherwise. Either way they must flag exactly what their definition does, stated
here in Python over the document text."""

from __future__ import annotations

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from groundwork.warehouse.sqlfiles import SQL_DIR, run_script

# non-ASCII letters and line breaks: DuckDB counts offsets in characters, as Python does
_TEXT = st.text(alphabet="ab §é—\n.", min_size=1, max_size=60)


def _span(draw: st.DrawFn, length: int) -> tuple[int, int]:
    start = draw(st.integers(0, length))
    return start, draw(st.integers(start, length))


@st.composite
def _cases(draw: st.DrawFn) -> dict:
    """A document, one chunk of it (its text the document's at its offsets, as chunks_verbatim
    holds), and a requirement that may lie inside the chunk or not, name another document's
    chunk or a document the warehouse lacks, and may misquote the text."""
    text = draw(_TEXT)
    chunk = _span(draw, len(text))
    start, end = _span(draw, len(text) + 3)  # now and then past the document's end
    sentence = _span(draw, len(text) + 3)
    quote = text[start:end]
    if draw(st.booleans()):
        quote = draw(st.sampled_from([quote + "a", quote[1:], "x" + quote[1:], quote.upper()]))
    doc_id = draw(st.sampled_from(["d", "d", "d", "other", "missing"]))
    return {
        "text": text,
        "chunk": chunk,
        "requirement": (doc_id, start, end, quote, *sentence),
    }


def _flagged(cases: list[dict]) -> tuple[set[str], set[str]]:
    """The requirement IDs requirements_verbatim and sentences_enclose_quotes flag."""
    con = duckdb.connect()
    con.execute("CREATE TABLE document_texts (sha256 VARCHAR, text VARCHAR)")
    con.execute("CREATE TABLE document_rows (doc_id VARCHAR, n_chars BIGINT, sha256 VARCHAR)")
    con.execute(
        "CREATE TABLE run_chunks (chunk_id VARCHAR, doc_id VARCHAR, char_start BIGINT, "
        "char_end BIGINT, text VARCHAR)"
    )
    con.execute(
        "CREATE TABLE fresh_requirements (requirement_id VARCHAR, doc_id VARCHAR, "
        "chunk_id VARCHAR, char_start BIGINT, char_end BIGINT, exact_quote VARCHAR, "
        "sentence_start BIGINT, sentence_end BIGINT)"
    )
    for i, case in enumerate(cases):
        text, (cs, ce) = case["text"], case["chunk"]
        doc_id, start, end, quote, ss, se = case["requirement"]
        for doc, body in ((f"d{i}", text), (f"other{i}", text[::-1])):
            con.execute("INSERT INTO document_texts VALUES (?, ?)", [doc, body])
            con.execute("INSERT INTO document_rows VALUES (?, ?, ?)", [doc, len(body), doc])
        con.execute(
            "INSERT INTO run_chunks VALUES (?, ?, ?, ?, ?)", [f"c{i}", f"d{i}", cs, ce, text[cs:ce]]
        )
        con.execute(
            "INSERT INTO fresh_requirements VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [f"R{i}", f"{doc_id}{i}", f"c{i}", start, end, quote, ss, se],
        )
    run_script(con, "review/placed_requirements")
    found = []
    for check in ("requirements_verbatim", "sentences_enclose_quotes"):
        sql = (SQL_DIR / "checks" / f"{check}.sql").read_text()
        found.append({row[0] for row in con.execute(sql).fetchall()})
    return found[0], found[1]


@settings(max_examples=300, deadline=None)
@given(st.lists(_cases(), min_size=1, max_size=6))
def test_the_text_checks_flag_what_their_definitions_do(cases):
    not_verbatim, not_enclosed = set(), set()
    for i, case in enumerate(cases):
        doc_id, start, end, quote, ss, se = case["requirement"]
        text = {"d": case["text"], "other": case["text"][::-1]}.get(doc_id)
        if text is None or text[start:end] != quote:
            not_verbatim.add(f"R{i}")
        inside = ss <= start and end <= se and se <= len(text or "")
        if text is not None and (not inside or "\n\n" in text[ss:se]):
            not_enclosed.add(f"R{i}")
    assert _flagged(cases) == (not_verbatim, not_enclosed)


def test_the_text_checks_read_only_the_texts_they_need(tmp_path):
    """A span outside its chunk is compared with its own document's text alone: both checks run
    under a memory limit well below the warehouse's texts (100 MB here, the limit 40 MB)."""
    path = str(tmp_path / "texts.duckdb")
    with duckdb.connect(path) as con:
        con.execute(
            "CREATE TABLE document_texts AS SELECT 'h' || i AS sha256, "
            "repeat('one two three four ', 2500) || i AS text FROM range(2000) t(i)"
        )
        con.execute(
            "CREATE TABLE document_rows AS SELECT 'd' || sha256[2:] AS doc_id, "
            "length(text) AS n_chars, sha256 FROM document_texts"
        )
        # the warehouse's view: a check that read the texts through it would run out of memory
        con.execute(
            "CREATE VIEW documents AS SELECT r.doc_id, t.text FROM document_rows r "
            "LEFT JOIN document_texts t USING (sha256)"
        )
    with duckdb.connect(path, config={"memory_limit": "40MB", "threads": 1}) as con:
        con.execute(
            "CREATE TEMP TABLE run_chunks (chunk_id VARCHAR, doc_id VARCHAR, "
            "char_start BIGINT, char_end BIGINT, text VARCHAR)"
        )
        con.execute(
            "CREATE TEMP TABLE fresh_requirements AS SELECT 'R1' AS requirement_id, "
            "'d7' AS doc_id, 'none' AS chunk_id, 4 AS char_start, 7 AS char_end, "
            "'two' AS exact_quote, 0 AS sentence_start, 12 AS sentence_end"
        )
        run_script(con, "review/placed_requirements")
        for check in ("requirements_verbatim", "sentences_enclose_quotes"):
            sql = (SQL_DIR / "checks" / f"{check}.sql").read_text()
            assert con.execute(sql).fetchall() == [], check
