"""Inputs of the retrieval tests: filler chunks and questions in the tables' own columns."""

from __future__ import annotations

import pyarrow as pa

from schemas.questions import ARROW_SCHEMA

# Unrelated chunks that keep a small test corpus realistic: a term in half of the chunks or more
# weighs little (idf below log 2).
FILLER = [
    "An air operator shall ensure that each flight crew member holds a valid licence.",
    "The master of a fishing vessel shall keep a logbook of the catch landed at each port.",
    "A pharmacist may dispense a controlled drug only against a prescription signed by a physician.",
    "Every public school district shall adopt a plan for the transportation of pupils.",
    "The owner of a dam shall inspect the spillway after each major flood.",
    "A carrier of hazardous cargo by rail shall placard every tank car.",
    "The trustee shall invest the estate assets as a prudent investor would.",
    "A contractor must hold a bond before bidding on a public works project.",
    "Members of the committee serve staggered terms of four years.",
    "A veterinarian shall keep a record of every vaccine administered to livestock.",
]


def questions(
    *texts: str, source_types: list[str] | None = None, jurisdiction: str | None = None
) -> pa.Table:
    """Questions in the columns of the questions table, IDs q0, q1, ...; the same filters each."""
    rows = [
        {
            "question_id": f"q{i}",
            "question": t,
            "topic": None,
            "category": None,
            "source_types": source_types or [],
            "jurisdiction": jurisdiction,
        }
        for i, t in enumerate(texts)
    ]
    return pa.Table.from_pylist(rows, schema=ARROW_SCHEMA)
