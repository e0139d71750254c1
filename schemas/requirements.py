"""Table `requirements`: verbatim requirement quotes with stable IDs and exact offsets.

`candidates` (the extract stage's output) has no ID yet; `requirements` adds the registry's ID,
source and first-seen run.
"""

import pandas as pd
import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

from schemas.ids import REQUIREMENT_ID

CANDIDATE_FIELDS = [
    ("doc_id", arrow.string()),
    ("chunk_id", arrow.string()),
    ("label_path", arrow.string()),
    ("char_start", arrow.int64()),
    ("char_end", arrow.int64()),
    ("exact_quote", arrow.string()),
    ("normalised_quote", arrow.string()),
    ("modality", arrow.string()),
    ("trigger", arrow.string()),
    ("subject", arrow.string()),
    ("lead_in_quote", arrow.string()),
    ("lead_in_start", arrow.int64()),
    ("lead_in_end", arrow.int64()),
    ("extraction_confidence", arrow.string()),
    ("extractor", arrow.string()),
    ("extractor_version", arrow.string()),
]
CANDIDATES_SCHEMA = arrow.schema(CANDIDATE_FIELDS)

MODALITIES = ["obligation", "prohibition", "permission"]
CONFIDENCES = ["high", "medium", "low"]


class Candidates(pa.DataFrameModel):
    """Extracted requirement quotes before registration."""

    doc_id: Series[str]
    chunk_id: Series[str]
    label_path: Series[str] = pa.Field(nullable=True)
    char_start: Series[int] = pa.Field(ge=0)
    char_end: Series[int] = pa.Field(ge=1)
    exact_quote: Series[str] = pa.Field(str_length={"min_value": 1})
    normalised_quote: Series[str] = pa.Field(str_length={"min_value": 1})
    modality: Series[str] = pa.Field(isin=MODALITIES)
    trigger: Series[str]
    subject: Series[str] = pa.Field(nullable=True)
    lead_in_quote: Series[str] = pa.Field(nullable=True)
    lead_in_start: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=0)
    lead_in_end: Series[pd.Int64Dtype] = pa.Field(nullable=True, ge=1)
    extraction_confidence: Series[str] = pa.Field(isin=CONFIDENCES)
    extractor: Series[str]
    extractor_version: Series[str]

    @pa.dataframe_check
    def quote_length_matches_offsets(cls, df):
        return df["exact_quote"].str.len() == df["char_end"] - df["char_start"]

    @pa.dataframe_check
    def quote_has_at_most_40_words(cls, df):
        return df["exact_quote"].str.split().str.len() <= 40

    class Config:
        strict = True
        coerce = True


class Requirements(Candidates):
    """Registered requirements: every row has a well-formed, unique stable ID."""

    requirement_id: Series[str] = pa.Field(unique=True, str_matches=REQUIREMENT_ID)
    canonical_key: Series[str] = pa.Field(unique=True, str_matches=r"^[0-9a-f]{64}$")
    source_id: Series[str] = pa.Field(str_matches=r"^S\d+$")
    first_run: Series[str]
