"""Table `citations`: which verified requirements each statement cites."""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract
from schemas.ids import REQUIREMENT_ID

CITATIONS_SCHEMA = arrow.schema(
    [
        ("statement_id", arrow.string()),
        ("question_id", arrow.string()),
        ("requirement_id", arrow.string()),
        ("marker", arrow.string()),
        ("role", arrow.string()),
    ]
)


Citations = table_contract(
    {
        "statement_id": pa.Column(str),
        "question_id": pa.Column(str),
        "requirement_id": pa.Column(str, pa.Check.str_matches(REQUIREMENT_ID)),
        "marker": pa.Column(str, pa.Check.str_matches(r"^\[REQ-[SP]\d{4,}\]$")),
        "role": pa.Column(str, pa.Check.isin(["primary", "alternate"])),
    },
    name="Citations",
)
