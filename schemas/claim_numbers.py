"""Table `claim_numbers`: every number a claim states, normalised, and how its quote backs it.

`status`: `matched` (the cited quote states the same value and unit, within the configured
rounding tolerance), `derived` (computed from quote numbers: `inputs` and `calculation` say
how), `unmatched` (the quote does not give it). Section, page and citation numbers are not
numeric claims and never appear here.
"""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

CLAIM_NUMBERS_SCHEMA = arrow.schema(
    [
        ("claim_id", arrow.string()),
        ("question_id", arrow.string()),
        ("surface", arrow.string()),
        ("kind", arrow.string()),
        ("value", arrow.float64()),
        ("unit", arrow.string()),
        ("status", arrow.string()),
        ("quote_surface", arrow.string()),
        ("inputs", arrow.list_(arrow.string())),
        ("calculation", arrow.string()),
    ]
)


class ClaimNumbers(pa.DataFrameModel):
    claim_id: Series[str]
    question_id: Series[str]
    surface: Series[str] = pa.Field(str_length={"min_value": 1})
    kind: Series[str] = pa.Field(isin=["amount", "percentage", "count", "duration", "date"])
    value: Series[float] = pa.Field(nullable=True)
    unit: Series[str] = pa.Field(nullable=True)
    status: Series[str] = pa.Field(isin=["matched", "derived", "unmatched"])
    quote_surface: Series[str] = pa.Field(nullable=True)
    inputs: Series[object]
    calculation: Series[str] = pa.Field(nullable=True)

    class Config:
        strict = True
        coerce = True
