"""`groundwork diff` for people: the words that changed inside a quote are marked, in Markdown and
on a terminal, and the report reads at 80 columns."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from groundwork.export.changes import Piece, changes_markdown, changes_text, word_changes

OLD = "a covered entity shall notify within 60 calendar days after discovery of a breach."
NEW = "a covered entity shall notify within 45 calendar days after discovery of a breach."
CHANGED = {
    "change": "changed",
    "old_id": "REQ-S0002",
    "new_id": "REQ-S0590",
    "doc_id": "us-cfr-45-164.404",
    "label_path": "164.404(b)",
    "old_quote": OLD,
    "new_quote": NEW,
}
ADDED = {**CHANGED, "change": "added", "old_id": None, "old_quote": None, "new_quote": "New."}
ANSWER = {
    "question_id": "Q001",
    "change": "changed",
    "old_result": "ANSWERED",
    "new_result": "ANSWERED",
    "old_confidence": "high",
    "new_confidence": "medium",
    "now_cited": ["REQ-S0590"],
    "no_longer_cited": ["REQ-S0002"],
}


def test_a_changed_number_is_one_word_gone_and_one_new():
    assert word_changes(OLD, NEW) == [
        Piece("same", "a covered entity shall notify within "),
        Piece("gone", "60 "),
        Piece("new", "45 "),
        Piece("same", "calendar days after discovery of a breach."),
    ]


words = st.lists(
    st.sampled_from(["shall", "may", "60", "days", "notify", "entity", "a"]), max_size=12
)


@given(words, words)
def test_the_pieces_rebuild_both_quotes(old_words, new_words):
    old, new = " ".join(old_words), " ".join(new_words)
    pieces = word_changes(old, new)
    assert "".join(p.text for p in pieces if p.kind != "gone").split() == new.split()
    assert "".join(p.text for p in pieces if p.kind != "new").split() == old.split()


def test_markdown_strikes_the_old_words_and_marks_the_new():
    text = changes_markdown("rA", "rB", [CHANGED, ADDED], [ANSWER])
    assert "within ~~60~~ **45** calendar days" in text
    assert "## Requirements: 1 added, 1 changed" in text
    assert "**changed REQ-S0002 → REQ-S0590 (us-cfr-45-164.404 164.404(b))**" in text
    assert "confidence high → medium; now cites REQ-S0590; no longer cites REQ-S0002" in text


def test_the_terminal_report_wraps_whole_quotes_at_80_columns():
    console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system="truecolor")
    console.print(changes_text("rA", "rB", [CHANGED], [ANSWER]))
    shown = console.file.getvalue()
    plain = Console(file=io.StringIO(), width=80)
    plain.print(changes_text("rA", "rB", [CHANGED], [ANSWER]))
    lines = plain.file.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    quote_lines = [line for line in lines if "calendar" in line or "breach" in line]
    assert len(quote_lines) <= 2  # one paragraph, not a word a line
    assert "\x1b[9" in shown  # struck (the old words)
