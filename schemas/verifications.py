"""Table `verifications`: the grounding gate's verdict on each (question, requirement) pair."""

import pandas as pd
import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

from schemas.ids import REQUIREMENT_ID

REJECTION_REASONS = [
    "does_not_address_question",
    "requires_inference",
    "incomplete_quote",
    "not_verbatim",
    "verifier_unavailable",
]

VERIFICATIONS_SCHEMA = arrow.schema(
    [
        ("question_id", arrow.string()),
        ("requirement_id", arrow.string()),
        ("chunk_id", arrow.string()),
        ("chunk_rank", arrow.int32()),
        ("verified", arrow.bool_()),
        ("rejection_reason", arrow.string()),
        ("rationale", arrow.string()),
        ("quote_coverage", arrow.float64()),
        ("chunk_coverage", arrow.float64()),
        ("matched_terms", arrow.list_(arrow.string())),
        ("verifier", arrow.string()),
    ]
)


class Verifications(pa.DataFrameModel):
    question_id: Series[str]
    requirement_id: Series[str] = pa.Field(str_matches=REQUIREMENT_ID)
    chunk_id: Series[str]
    chunk_rank: Series[int] = pa.Field(ge=1)
    verified: Series[bool]
    rejection_reason: Series[str] = pa.Field(nullable=True, isin=REJECTION_REASONS)
    rationale: Series[str] = pa.Field(str_length={"min_value": 1})
    quote_coverage: Series[float] = pa.Field(ge=0, le=1)
    chunk_coverage: Series[float] = pa.Field(ge=0, le=1)
    matched_terms: Series[object]
    verifier: Series[str]

    @pa.dataframe_check
    def reason_iff_rejected(cls, df: pd.DataFrame) -> pd.Series:
        return df["verified"] == df["rejection_reason"].isna()

    class Config:
        strict = True
        coerce = True
