"""Table `statements`: the cited statements of each answer, with offsets into it."""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

STATEMENTS_SCHEMA = arrow.schema(
    [
        ("statement_id", arrow.string()),
        ("question_id", arrow.string()),
        ("ordinal", arrow.int32()),
        ("text", arrow.string()),
        ("char_start", arrow.int64()),
        ("char_end", arrow.int64()),
        ("section", arrow.string()),
        ("claim_type", arrow.string()),
    ]
)


class Statements(pa.DataFrameModel):
    statement_id: Series[str] = pa.Field(unique=True)
    question_id: Series[str]
    ordinal: Series[int] = pa.Field(ge=1)
    text: Series[str] = pa.Field(str_length={"min_value": 1})
    char_start: Series[int] = pa.Field(ge=0)
    char_end: Series[int] = pa.Field(ge=1)
    section: Series[str] = pa.Field(isin=["statutes", "policies", "tensions"])
    claim_type: Series[str] = pa.Field(isin=["general", "numeric"])

    class Config:
        strict = True
        coerce = True
