"""The enclosing sentence of a quote: whole sentences, inside the quote's paragraph."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundwork.text.sentences import enclosing_span, sentence_spans
from tests.support.extraction import extracted


def test_the_enclosing_sentence_is_whole_and_stays_in_its_paragraph():
    text = (
        "Heading line\nFirst sentence here. The entity shall keep records, and so on. Last.\nNext"
    )
    start = text.index("shall")
    first, last = enclosing_span(text, start, start + 5)
    assert text[first:last] == "The entity shall keep records, and so on."


def test_a_quote_across_two_sentences_gets_both():
    text = "One rule. The entity shall keep records. It shall send them. Done."
    start, end = text.index("records"), text.index("send") + 4
    first, last = enclosing_span(text, start, end)
    assert text[first:last] == "The entity shall keep records. It shall send them."


_SENTENCE = st.text(alphabet="abcdef ,;", min_size=1, max_size=30).map(
    lambda s: "The " + s.strip() + " shall apply."
)


@given(
    st.lists(st.lists(_SENTENCE, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=4),
    st.data(),
)
def test_the_span_holds_the_quote_and_stays_on_its_lines(lines, data):
    text = "\n".join(lines)
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    first, last = enclosing_span(text, start, end)
    assert first <= start and end <= last
    assert "\n" not in text[first:start] and "\n" not in text[end:last]


def test_a_heading_line_ends_a_sentence():
    text = "Access control\nAll employees must lock their screens. Visitors sign in."
    assert _sentences(text) == [
        "Access control",
        "All employees must lock their screens.",
        "Visitors sign in.",
    ]


def test_a_wrapped_line_is_no_heading():
    for text in (
        "The Secretary shall notify\nCongress of each breach.",  # a modal: a duty, not a heading
        "Notice to the\nSecretary of each breach.",  # ends with a function word
        "A first line of a paragraph wrapped at nine words\nAnd more.",  # too long
        "Staff lock screens\nwhen they leave.",  # the next line opens no sentence
    ):
        assert _sentences(text) == [text]


def test_a_heading_opens_its_block():
    text = "Staff must lock screens.\nAccess control\nAll employees must sign in.\n\nPurpose\nThis policy applies."
    assert _sentences(text) == [
        "Staff must lock screens.",
        "Access control\nAll employees must sign in.",
        "Purpose",
        "This policy applies.",
    ]


def test_a_quote_under_a_heading_leaves_the_heading_out():
    policy = "Access control\nAll employees must lock their screens when they leave their desks."
    (row,) = extracted(policy)
    assert row["exact_quote"] == policy.split("\n")[1]


def _sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]
