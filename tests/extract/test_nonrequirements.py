"""Only requirements are registered: a citation or amendment note and a lead-in are set aside by
every extraction backend (groundwork/extract/nonrequirements.py), and a lead-in travels with its
items as their `lead_in_quote`."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from groundwork.extract.nonrequirements import is_citation_note, is_lead_in
from groundwork.extract.rules import Chunk, candidates
from groundwork.extract.served import validated_candidates
from groundwork.llm.calls import ModelStage
from groundwork.llm.prompts import prompt
from groundwork.text.chunks import chunks
from groundwork.warehouse.store import Warehouse
from schemas.config import ModelBackend, RunConfig
from schemas.model_replies import ExtractedRequirement, ExtractionReply

# 45 CFR 164.306(d)(3) and the history note that closes 164.308, as the sample corpus holds them
ADDRESSABLE = """# § 164.306 Security standards: General rules.

(d)(3) When a standard adopted in § 164.308 includes addressable implementation specifications, a covered entity or business associate must--

(i) Assess whether each implementation specification is a reasonable and appropriate safeguard in its environment; and

(ii) As applicable to the covered entity or business associate--

(A) Implement the implementation specification if reasonable and appropriate; or

(B) Document why it would not be reasonable and appropriate to implement the implementation specification.

[68 FR 8376, Feb. 20, 2003, as amended at 78 FR 5694, Jan. 25, 2013]"""

REVOCATION = """(5) An individual may revoke an authorization provided under this section at any time, provided that the revocation is in writing, except to the extent that:

(i) The covered entity has taken action in reliance thereon; or

(ii) If the authorization was obtained as a condition of obtaining insurance coverage."""


def extracted(text: str) -> list[dict]:
    docs = pa.table({"doc_id": ["d"], "citation": ["45 CFR § 164.306"], "text": [text]})
    return candidates(chunks(docs, 1500)).to_pylist()


def test_a_lead_in_travels_with_its_items_and_is_not_registered_alone():
    rows = extracted(ADDRESSABLE)
    lead_in = next(r for r in rows if r["exact_quote"].endswith("business associate must--"))
    assert not lead_in["is_requirement"]
    items = [r for r in rows if r["is_requirement"]]
    assert [r["exact_quote"].split()[0] for r in items] == ["Assess", "Implement", "Document"]
    assert {r["lead_in_quote"] for r in items} == {lead_in["exact_quote"]}


def test_an_item_that_only_introduces_sub_items_is_set_aside():
    rows = extracted(ADDRESSABLE)
    nested = next(r for r in rows if r["exact_quote"].startswith("As applicable to"))
    assert nested["lead_in_quote"] and not nested["is_requirement"]


def test_a_history_note_is_never_a_requirement():
    rows = extracted(ADDRESSABLE)
    notes = [r for r in rows if r["exact_quote"].startswith("[68 FR")]
    assert notes and not any(r["is_requirement"] for r in notes)


def test_a_lead_in_of_conditions_states_its_duty_and_is_kept():
    rows = extracted(REVOCATION)
    assert [(r["modality"], r["is_requirement"]) for r in rows] == [("permission", True)]


@pytest.mark.parametrize(
    ("quote", "note"),
    [
        ("[68 FR 8376, Feb. 20, 2003, as amended at 78 FR 5694, Jan. 25, 2013]", True),
        ("[78 FR 5692, Jan. 25, 2013]", True),
        ("(Pub. L. 104-191, title II, § 262(a), Aug. 21, 1996, 110 Stat. 2021.)", True),
        ("Source: 65 FR 82802, Dec. 28, 2000, unless otherwise noted.", True),
        ("Authority: 42 U.S.C. 1320d-1320d-9.", True),
        ("(For example, a trading partner agreement may specify the duties of each party.)", False),
        ("A covered entity must comply with 45 CFR 164.530, as amended.", False),
    ],
)
def test_citation_notes(quote: str, note: bool):
    assert is_citation_note(quote) is note


@pytest.mark.parametrize(
    ("quote", "lead_in"),
    [
        ("A covered entity must:", True),
        ("a covered entity or business associate must--", True),
        ("The notice shall include the following— ", True),
        ("You may not disclose nonpublic personal information to a third party unless:", False),
        ("A covered entity may deny access, provided that:", False),
        ("A covered entity must notify the Secretary.", False),
    ],
)
def test_lead_ins(quote: str, lead_in: bool):
    assert is_lead_in(quote) is lead_in


def test_the_served_backend_sets_the_same_quotes_aside(tmp_path: Path):
    text = "A covered entity must: (1) notify the Secretary. [78 FR 5692, Jan. 25, 2013]"
    backend = ModelBackend(base_url="http://127.0.0.1:9/v1", model="m")
    stage = ModelStage(
        Warehouse(tmp_path), "r1", "extract", backend, RunConfig(), prompt("extract")
    )
    reply = ExtractionReply(
        requirements=[
            ExtractedRequirement(quote=quote, modality="obligation")
            for quote in (
                "A covered entity must:",
                "[78 FR 5692, Jan. 25, 2013]",
                "notify the Secretary.",
            )
        ]
    )
    rows = validated_candidates(stage, Chunk("d#0000", "d", None, None, 0, text), reply)
    assert [r["is_requirement"] for r in rows] == [False, False, True]
