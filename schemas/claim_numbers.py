"""Table `claim_numbers`: every number a claim states, normalised, and how its quote backs it.

`status`: `matched` (the cited quote states the same value and unit, within the configured
rounding tolerance), `derived` (computed from quote numbers: `inputs` and `calculation` say
how), `unmatched` (the quote does not give it). Section, page and citation numbers are not
numeric claims and never appear here.
"""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

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


ClaimNumbers = table_contract(
    {
        "claim_id": pa.Column(str),
        "question_id": pa.Column(str),
        "surface": pa.Column(str, pa.Check.str_length(min_value=1)),
        "kind": pa.Column(
            str, pa.Check.isin(["amount", "percentage", "count", "duration", "date"])
        ),
        "value": pa.Column(float, nullable=True),
        "unit": pa.Column(str, nullable=True),
        "status": pa.Column(str, pa.Check.isin(["matched", "derived", "unmatched"])),
        "quote_surface": pa.Column(str, nullable=True),
        "inputs": pa.Column(object),
        "calculation": pa.Column(str, nullable=True),
    },
    name="ClaimNumbers",
)
