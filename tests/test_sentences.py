"""The enclosing sentence of a quote: whole sentences, inside the quote's paragraph."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundwork.sentences import enclosing_span


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
