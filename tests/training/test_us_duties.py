"""The requirement classifier's US text (training/us_duties.py), read from a warehouse of the
rules' own candidates: an answer quote of a duty question gives the sentence of each duty
candidate overlapping it, after its lead-in, as the pipeline shows it to the model; a lead-in the
rules set aside, a permission and a withheld text give nothing. And the hand-read sample's
decisions (training/requirement.py): the routing keeps what the model is not asked about."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from groundwork.extract.rules import candidates
from groundwork.text.chunks import chunks
from tests.support.texts import BREACH
from training.requirement import sample_decisions
from training.us_duties import UsText, sample_rows, us_positives, us_text

TEXT = (
    BREACH + "\n\nA covered entity shall notify each affected individual of the breach.\n\n"
    "A covered entity may provide the notice by email."
)
LEAD_IN = "The notification required by paragraph (a) of this section shall include"


def warehouse(tmp_path: Path) -> Path:
    """A warehouse holding the current tables us_text reads, of one document."""
    docs = pa.table({"doc_id": ["d"], "citation": ["45 CFR § 164.404"], "text": [TEXT]})
    chunked = chunks(docs, 1500)
    found = candidates(chunked)
    texts = pa.table({"sha256": ["h"], "text": [TEXT]})
    documents = pa.table({"doc_id": ["d"], "sha256": ["h"]})
    con = duckdb.connect(str(tmp_path / "groundwork.duckdb"))
    for name, table in (
        ("current_candidates", found),
        ("current_chunks", chunked),
        ("current_documents", documents),
        ("document_texts", texts),
    ):
        con.register("incoming", table)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM incoming")
        con.unregister("incoming")
    con.close()
    return tmp_path


def questions(tmp_path: Path, records: list[tuple[str, str]]) -> Path:
    """A question split whose answerable questions ask for `asks`, each answered by one quote."""
    path = tmp_path / "split.jsonl"
    lines = [
        json.dumps(
            {
                "id": f"Q{i}",
                "answerable": True,
                "asks": asks,
                "answers": [{"doc_id": "d", "quote": q}],
            }
        )
        for i, (asks, q) in enumerate(records)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_duty_quotes_give_their_sentences_with_lead_ins(tmp_path):
    text = us_text(warehouse(tmp_path))
    split = questions(
        tmp_path,
        [
            ("duty", "shall be written in plain language"),
            ("deadline", "A brief description of what happened"),
            ("duty", "shall include, to the extent possible:"),  # the lead-in alone: set aside
            ("prohibition", "may provide the notice by email"),  # a permission
            ("permission", "shall notify each affected individual"),  # not a duty question
        ],
    )
    got = us_positives(split, text, set())
    assert (got.quotes, got.uncovered, got.withheld) == (4, 2, 0)
    plain, item = sorted(got.texts, key=lambda t: "brief" in t)
    assert plain.endswith("shall be written in plain language.")
    assert item.startswith(LEAD_IN) and "A brief description of what happened" in item
    withheld = us_positives(split, text, {plain})
    assert (withheld.texts, withheld.withheld) == ([item], 1)


def test_a_quote_missing_from_its_document_is_an_error(tmp_path):
    text = us_text(warehouse(tmp_path))
    split = questions(tmp_path, [("duty", "shall be written in Latin")])
    with pytest.raises(ValueError, match="Q0"):
        us_positives(split, text, set())


def sample(tmp_path: Path, text: UsText, labels: dict[str, str]) -> Path:
    """A hand-read sample of the candidates whose quote starts with each key, labelled."""
    rows = [
        {"doc_id": c.doc_id, "char_start": c.char_start, "char_end": c.char_end, "label": label}
        for c in text.candidates["d"]
        for start, label in labels.items()
        if TEXT[c.char_start :].startswith(start)
    ]
    path = tmp_path / "sample.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_the_routing_keeps_what_it_does_not_ask_about(tmp_path):
    text = us_text(warehouse(tmp_path))
    labels = {
        "A covered entity shall notify": "requirement",  # a duty read with high confidence
        "A covered entity may provide": "requirement",  # a permission
        "The notification required by paragraph (a) of this section shall be": "requirement",
        "A brief description": "not",
    }
    rows = sample_rows(sample(tmp_path, text, labels), text)
    assert len(rows) == 4 and sum(c.asked for c, _ in rows) == 2
    scores = {c.text: 0.2 if gold else 0.9 for c, gold in rows if c.asked}
    routed = sample_decisions(rows, scores)
    assert (routed["kept"], routed["precision"]) == (3, 0.667)
    assert (routed["requirements_set_aside"], routed["not_set_aside"]) == (1, 0)
    rules = sample_decisions(rows, None)
    assert (rules["kept"], rules["precision"], rules["requirements_set_aside"]) == (4, 0.75, 0)
