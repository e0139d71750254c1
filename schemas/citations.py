"""Table `citations`: which verified requirements each statement cites."""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

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


class Citations(pa.DataFrameModel):
    statement_id: Series[str]
    question_id: Series[str]
    requirement_id: Series[str] = pa.Field(str_matches=REQUIREMENT_ID)
    marker: Series[str] = pa.Field(str_matches=r"^\[REQ-[SP]\d{4,}\]$")
    role: Series[str] = pa.Field(isin=["primary", "alternate"])

    class Config:
        strict = True
        coerce = True
