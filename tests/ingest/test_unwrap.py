"""Joining the lines of a paragraph that a PDF's text layer broke (groundwork/ingest/unwrap.py)."""

from __future__ import annotations

import pytest

from groundwork.ingest.unwrap import unwrapped_lines


@pytest.mark.parametrize(
    ("extracted", "stored"),
    [
        # a sentence broken where the printed line ended
        (
            "must notify the privacy officer within one hour\nof discovering a breach.",
            "must notify the privacy officer within one hour of discovering a breach.",
        ),
        # spaces around the break collapse to one
        ("within one hour  \n  of discovering", "within one hour of discovering"),
        # a word broken by a hyphen, or a soft hyphen, is made whole
        ("the applicable regu-\nlation applies.", "the applicable regulation applies."),
        ("the applicable regu\u00ad\nlation applies.", "the applicable regulation applies."),
        # a sentence or clause that ends at the line end keeps its break
        ("Staff must lock screens.\nthey must also log out.", None),
        ("the following apply:\nthe records;", None),
        ("as it says (see below.)\nthen", None),
        # a heading, a new sentence, a list item keep their own line
        ("Section 2 Scope\nThis policy applies to staff.", None),
        ("Breach response policy\nEvery employee must report.", None),
        ("must report\n(a) the date", None),
        # a blank line (a paragraph or a page break) is never joined
        ("the end of a page\n\nof the next", None),
        # a hyphen after a digit or a space is not a broken word
        ("pages 10-\nand more", "pages 10- and more"),
        ("a dash -\nand more", "a dash - and more"),
    ],
)
def test_lines_inside_a_paragraph_are_joined(extracted: str, stored: str | None):
    assert unwrapped_lines(extracted) == (stored if stored is not None else extracted)


def test_several_breaks_in_one_paragraph_become_one_line():
    extracted = "Every employee must\nnotify the privacy\nofficer within one\nhour.\nNext."
    assert unwrapped_lines(extracted) == (
        "Every employee must notify the privacy officer within one hour.\nNext."
    )
