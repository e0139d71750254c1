"""The fast reading of plain front matter (groundwork/parsers.simple_mapping) gives exactly what
YAML gives, and leaves every other block to YAML."""

from __future__ import annotations

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundwork.ingest.parsers import _YAML_LOADER, simple_mapping

# Keys and values near the edges: words YAML resolves, quotes, escapes, comments, line breaks
# YAML knows and the reader refuses
KEYS = st.sampled_from(
    ["doc_id", "title", "Title", "x_1", "_k", "yes", "No", "ON", "null", "1a", "a-b", "~", "<<"]
)
TEXT = st.text(
    alphabet=st.sampled_from([*"ab §—é:#,-[]{}\"\\' \t", "\u2028", "\x85", "\x7f", "\ufeff"]),
    max_size=12,
)
VALUES = st.one_of(
    TEXT.map(lambda t: f'"{t}"'),
    st.lists(TEXT, max_size=3).map(lambda items: "[" + ", ".join(f'"{t}"' for t in items) + "]"),
    TEXT,  # plain or malformed: never read the fast way unless YAML would read it the same
)
SEPARATORS = st.sampled_from([": ", ":  ", ":", ":\t", " : "])


def yaml_reading(block: str) -> object:
    try:
        return yaml.load(block, Loader=_YAML_LOADER)
    except yaml.YAMLError:
        return "an error"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(KEYS, SEPARATORS, VALUES), min_size=1, max_size=5))
@example([("doc_id", ": ", '"us-ny-edn-4355"'), ("hierarchy", ": ", '["Laws", "Education Law"]')])
@example([("title", ": ", '"a # not a comment: really"'), ("title", ": ", '"twice"')])
def test_a_block_read_fast_reads_as_yaml_reads_it(lines: list[tuple[str, str, str]]):
    block = "\n".join(f"{key}{separator}{value}" for key, separator, value in lines)
    fast = simple_mapping(block)
    if fast is not None:
        assert fast == yaml_reading(block)


def test_the_corpus_front_matter_is_read_fast():
    block = 'doc_id: "us-ny-edn-4355"\ntitle: "Admission"\nhierarchy: ["Laws", "Education Law"]'
    assert simple_mapping(block) == {
        "doc_id": "us-ny-edn-4355",
        "title": "Admission",
        "hierarchy": ["Laws", "Education Law"],
    }


def test_anything_else_is_left_to_yaml():
    for block in (
        "effective: 2024-01-01",  # a date, to YAML
        'yes: "a boolean key"',
        'title: "escaped \\" quote"',
        'title: "line\u2028separator"',
        '# a comment\ntitle: "x"',
        'title: "x"\n\nurl: "y"',
    ):
        assert simple_mapping(block) is None
