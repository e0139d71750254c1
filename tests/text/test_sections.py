"""Label paths rebuilt from labels alone, and sentence boundaries in legal prose."""

from __future__ import annotations

from groundwork.text.sections import label_path, labelled_paragraphs, paragraphs, section_number
from groundwork.text.sentences import sentence_spans
from tests.support.texts import CFR


def paths(text: str, section: str) -> list[str]:
    return [
        label_path(section, labels)
        for p, labels, _ in labelled_paragraphs(text)
        if not p.heading_level
    ]


def test_cfr_label_paths():
    assert paths(CFR, "164.308") == [
        "164.308(a)",
        "164.308(a)(1)(i)",
        "164.308(a)(1)(ii)",
        "164.308(a)(1)(ii)(A)",
        "164.308(a)(1)(ii)(B)",
        "164.308(a)(2)",
        "164.308(b)(1)",
    ]


def test_letter_i_after_h_is_a_letter_not_a_roman_numeral():
    text = "(g) One.\n\n(h) Two.\n\n(i) Three.\n\n(1) Sub.\n\n(i) Roman under one."
    assert paths(text, "1") == ["1(g)", "1(h)", "1(i)", "1(i)(1)", "1(i)(1)(i)"]


def test_new_york_dotted_subdivisions():
    text = "1. The commissioner shall act.\n\n(a) first\n\n(b) second\n\n2. Another duty."
    assert paths(text, "33.13") == ["33.13(1)", "33.13(1)(a)", "33.13(1)(b)", "33.13(2)"]


def test_heading_resets_the_label_stack():
    text = "## Part one\n\n(a) x\n\n(1) y\n\n## Part two\n\n(1) z"
    assert paths(text, "") == ["(a)", "(a)(1)", "(1)"]


def test_section_number_from_citation_or_heading():
    assert section_number("45 CFR § 164.308", "") == "164.308"
    assert section_number(None, "# § 7-1201.01 Definitions") == "7-1201.01"
    assert section_number("GSA TTS Handbook", "# Passwords") is None


def test_sentences_skip_abbreviations_and_labels():
    text = "See 42 U.S.C. 1320d. (1) Notice is required, e.g. by mail. The end"
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "See 42 U.S.C. 1320d.",
        "(1) Notice is required, e.g. by mail.",
        "The end",
    ]


def test_list_items_on_consecutive_lines_are_separate_paragraphs():
    text = "#### Booking:\n\n1.  Identify the provider\n2.  The individual emails\n- a bullet\ncontinued line"
    found = [text[p.start : p.end] for p in paragraphs(text)]
    assert found == [
        "#### Booking:",
        "1.  Identify the provider",
        "2.  The individual emails",
        "- a bullet\ncontinued line",
    ]
