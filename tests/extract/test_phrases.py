"""Quotes that end or start inside a phrase: the definition (groundwork/extract/phrases.py) on
the issue's examples, the widening that repairs a span, the hard SQL check held to the same
definition on generated spans, and the sample corpus's quotes, all whole."""

from __future__ import annotations

import duckdb
from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundwork.extract.deontic import deontic_clauses
from groundwork.extract.phrases import BLANKS, ends_inside, starts_inside, whole_span
from groundwork.warehouse.sqlfiles import SQL_DIR
from tests.support.texts import corpus_text

BREACH = (
    "A covered entity shall notify each individual whose unsecured protected health "
    "information has been, or is reasonably believed to have been, accessed, acquired, used, "
    "or disclosed as a result of such breach."
)
NOTICES = (
    "The initial, annual, and revised privacy notices that you provide under §§ 1016.4, 1016.5, "
    "and 1016.8 of this part must include each of the following items of information:"
)


def _span(text: str, quote: str) -> tuple[int, int]:
    start = text.index(quote)
    return start, start + len(quote)


def test_a_quote_cut_at_a_word_budget_ends_inside_a_phrase():
    start, end = _span(BREACH, "A covered entity shall notify each individual")
    assert ends_inside(BREACH, end)
    cut = BREACH.index(", or disclosed")
    assert ends_inside(BREACH, cut)  # "..., acquired, used" before ", or disclosed"
    assert not ends_inside(BREACH, len(BREACH))
    assert not starts_inside(BREACH, start)


def test_a_quote_opening_after_a_word_starts_inside_a_phrase():
    start, _ = _span(NOTICES, "1016.8 of this part must include")
    assert starts_inside(NOTICES, start)
    start, _ = _span(NOTICES, "and 1016.8 of this part must include")
    assert starts_inside(NOTICES, start)  # a comma inside a list is no clause boundary


def test_a_sentence_closed_inside_quotation_marks_and_a_plus_bullet_are_boundaries():
    text = (
        "a “pertinent element of creditworthiness.” (Both types may favor it.)\n+ Send the agenda."
    )
    assert not starts_inside(text, text.index("(Both"))
    assert not starts_inside(text, text.index("Send"))
    assert starts_inside("of creditworthiness” both may", len("of creditworthiness” "))


def test_a_span_opening_with_the_last_phrases_mark_starts_after_it():
    text = "under section 1466(a) of this title . That amount shall be the sum."
    start = text.index(" . That")
    assert whole_span(text, start, len(text)) == (text.index("That"), len(text))


def test_list_labels_line_breaks_and_semicolons_are_boundaries():
    text = "(A) A brief description of what happened;\n- Notify the board\nIt must; and it shall"
    assert not starts_inside(text, text.index("A brief"))
    assert not ends_inside(text, text.index(";\n"))
    assert not starts_inside(text, text.index("Notify"))
    assert not ends_inside(text, text.index("\nIt"))  # a line that ends without punctuation
    assert starts_inside(text, text.index("it shall"))  # after "and"
    assert not starts_inside(text, text.index("and it"))


def test_labels_that_refer_to_a_paragraph_are_no_boundary():
    text = (
        "If you have been excepted pursuant to paragraph (e)(1) of this section and change "
        "your practices, you must comply with paragraph (e)(2) of this section."
    )
    assert starts_inside(text, text.index("of this section and"))
    assert whole_span(text, text.index("of this section and"), len(text)) == (0, len(text))
    items = "(b)(2)(i) The entity must act.\n- (2) Send it: (ii) Keep it\n1) File it\nsee 2) No"
    for opening in ("The entity", "Send it", "Keep it", "File it"):
        assert not starts_inside(items, items.index(opening))
    assert starts_inside(items, items.index("No"))
    noted = "* NB Effective June 30, 2027 (c) Such information shall not be released"
    assert not starts_inside(noted, noted.index("Such"))


def test_widening_repairs_a_cut_quote_to_the_whole_clause():
    start, end = _span(BREACH, "entity shall notify each individual whose unsecured")
    assert whole_span(BREACH, start, end) == (0, len(BREACH))


_WORDS = st.sampled_from(["shall", "notify", "the", "board", "1016.8", "(a)", "§", "and"])
_MARK_LIST = [" ", " ", " ", ", ", "; ", ". ", ": ", "\n", " — ", " (b) ", "\n- ", "\r\n"]
_MARKS = st.sampled_from([*_MARK_LIST, " \x0c", "\u00a0", ".” ", " .", "\n+ "])
_TEXTS = st.lists(st.tuples(_WORDS, _MARKS), min_size=2, max_size=30).map(
    lambda parts: "".join(w + m for w, m in parts)
)


@st.composite
def _spans(draw) -> tuple[str, int, int]:
    text = draw(_TEXTS)
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, len(text)))
    return text, start, end


@settings(max_examples=300, deadline=None)
@given(_spans())
def test_a_widened_span_holds_the_original_and_is_whole_within_its_line(case):
    """Whole: it starts and ends at a phrase boundary. It holds the original's words: what it
    leaves out at the start is only the marks that end the phrase before."""
    text, start, end = case
    wide_start, wide_end = whole_span(text, start, end)
    assert end <= wide_end
    assert wide_start <= start or not text[start:wide_start].strip(".;:!?—–" + BLANKS)
    assert not starts_inside(text, wide_start) or wide_start == 0
    assert not ends_inside(text, wide_end)


@settings(max_examples=200, deadline=None)
@given(st.lists(_spans(), min_size=1, max_size=8))
@example([("notify notify the, the.” shall ", 23, 24)])  # a quote of only the closer after `.`
def test_the_sql_check_flags_exactly_the_quotes_the_definition_does(cases):
    check = (SQL_DIR / "checks" / "quotes_whole.sql").read_text()
    con = duckdb.connect()
    con.execute("CREATE TABLE documents (doc_id VARCHAR, text VARCHAR)")
    con.execute(
        "CREATE TABLE fresh_requirements (requirement_id VARCHAR, doc_id VARCHAR, "
        "char_start BIGINT, char_end BIGINT, exact_quote VARCHAR)"
    )
    expected = set()
    for i, (text, start, end) in enumerate(cases):
        con.execute("INSERT INTO documents VALUES (?, ?)", [f"d{i}", text])
        con.execute(
            "INSERT INTO fresh_requirements VALUES (?, ?, ?, ?, ?)",
            [f"R{i}", f"d{i}", start, end, text[start:end]],
        )
        if ends_inside(text, end) or starts_inside(text, start):
            expected.add(f"R{i}")
    assert {row[0] for row in con.execute(check).fetchall()} == expected


def test_no_quote_of_the_sample_corpus_ends_or_starts_inside_a_phrase():
    inside = []
    for line in corpus_text().splitlines():
        for clause in deontic_clauses(line):
            if ends_inside(line, clause.end) or starts_inside(line, clause.start):
                inside.append(line[clause.start : clause.end])
    assert inside == []


def test_the_check_is_a_hard_gate():
    header = (SQL_DIR / "checks" / "quotes_whole.sql").read_text().splitlines()[:3]
    assert header == ["-- check: quotes_whole", "-- table: requirements", "-- severity: hard"]
