"""Table `claims`: the atomic claims of each statement, each checked against its cited quotes.

A claim is checked in isolation: the checker sees the claim and one quote, never the answer.
`verdict_before` is the verdict against the statement's original citation, `verdict` the one
after citation correction; `action` says what was published: the claim as written (`kept`), a
softened form, or nothing (`removed`). A verbatim quote is its own evidence, so a claim that is
verbatim in its cited quote is SUPPORTED without further checks.
"""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

VERDICTS = ["SUPPORTED", "PARTIAL", "UNSUPPORTED", "CONTRADICTED"]
ACTIONS = ["kept", "hedged", "qualified", "marked_unverified", "removed"]

CLAIMS_SCHEMA = arrow.schema(
    [
        ("claim_id", arrow.string()),
        ("statement_id", arrow.string()),
        ("question_id", arrow.string()),
        ("ordinal", arrow.int32()),
        ("text", arrow.string()),
        ("published_text", arrow.string()),
        ("requirement_ids", arrow.list_(arrow.string())),
        ("depth", arrow.string()),
        ("verdict_before", arrow.string()),
        ("verdict", arrow.string()),
        ("reason", arrow.string()),
        ("issues", arrow.list_(arrow.string())),
        ("support", arrow.float64()),
        ("action", arrow.string()),
    ]
)


Claims = table_contract(
    {
        "claim_id": pa.Column(str, unique=True),
        "statement_id": pa.Column(str),
        "question_id": pa.Column(str),
        "ordinal": pa.Column(int, pa.Check.ge(1)),
        "text": pa.Column(str, pa.Check.str_length(min_value=1)),
        "published_text": pa.Column(str, nullable=True),
        "requirement_ids": pa.Column(object),
        "depth": pa.Column(str, pa.Check.isin(["full", "light"])),
        "verdict_before": pa.Column(str, pa.Check.isin(VERDICTS)),
        "verdict": pa.Column(str, pa.Check.isin(VERDICTS)),
        "reason": pa.Column(str),
        "issues": pa.Column(object),
        "support": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)]),
        "action": pa.Column(str, pa.Check.isin(ACTIONS)),
    },
    name="Claims",
)
