"""groundwork/wording: the word lists kept as data files and the grammar both readers share."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from groundwork.wording import grammar
from groundwork.wording.lists import entries, records, words

LISTS = Path(grammar.__file__).resolve().parent / "lists"
NAMES = sorted(str(p.relative_to(LISTS).with_suffix("")) for p in LISTS.rglob("*.txt"))


@pytest.mark.parametrize("name", NAMES)
def test_every_list_says_where_it_came_from_and_has_entries(name):
    assert (LISTS / f"{name}.txt").read_text(encoding="utf-8").startswith("# ")
    assert entries(name) and not any(e.startswith("#") for e in entries(name))


def test_records_keep_the_rest_of_the_line_in_the_last_field():
    assert ("later", "earlier", "deadline differs") in records("antonyms", 3)


def test_the_readers_pronouns_extend_one_base():
    assert words("pronouns") == {"it", "they", "he", "she", "you", "we"}
    assert grammar.PARTY_PRONOUNS < grammar.POINTING_PRONOUNS < grammar.SEGMENT_PRONOUNS
    assert "It" in grammar.STATUTE_PRONOUNS and "We" not in grammar.STATUTE_PRONOUNS


def test_an_alternation_matches_the_longest_word_whatever_the_order():
    pattern = re.compile(rf"(?:{grammar.either({'in', 'into', 'a', 'an'})})")
    assert pattern.match("into").group(0) == "into"
    assert grammar.either(["b", "a", "ab"]) == grammar.either(["ab", "a", "b"]) == "ab|a|b"
