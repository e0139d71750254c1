"""Table `claims`: the atomic claims of each statement, each checked against its cited quotes.

A claim is checked in isolation: the checker sees the claim and one quote, never the answer.
`verdict_before` is the verdict against the statement's original citation, `verdict` the one
after citation correction; `action` says what was published: the claim as written (`kept`), a
softened form, or nothing (`removed`). A verbatim quote is its own evidence, so a claim that is
verbatim in its cited quote is SUPPORTED without further checks.
"""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

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


class Claims(pa.DataFrameModel):
    claim_id: Series[str] = pa.Field(unique=True)
    statement_id: Series[str]
    question_id: Series[str]
    ordinal: Series[int] = pa.Field(ge=1)
    text: Series[str] = pa.Field(str_length={"min_value": 1})
    published_text: Series[str] = pa.Field(nullable=True)
    requirement_ids: Series[object]
    depth: Series[str] = pa.Field(isin=["full", "light"])
    verdict_before: Series[str] = pa.Field(isin=VERDICTS)
    verdict: Series[str] = pa.Field(isin=VERDICTS)
    reason: Series[str]
    issues: Series[object]
    support: Series[float] = pa.Field(ge=0, le=1)
    action: Series[str] = pa.Field(isin=ACTIONS)

    class Config:
        strict = True
        coerce = True
