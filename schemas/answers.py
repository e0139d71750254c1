"""Tables of the question-answering half: retrievals, verifications, answers, statements,
citations. Arrow schemas (what the stages write) and pandera contracts (what they promise)."""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

REQUIREMENT_ID = r"^REQ-[SP]\d{4,}$"
REJECTION_REASONS = [
    "does_not_address_question",
    "requires_inference",
    "incomplete_quote",
    "not_verbatim",
]

RETRIEVALS_SCHEMA = arrow.schema(
    [
        ("question_id", arrow.string()),
        ("chunk_id", arrow.string()),
        ("doc_id", arrow.string()),
        ("rank", arrow.int32()),
        ("score", arrow.float64()),
        ("retriever", arrow.string()),
    ]
)

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

ANSWERS_SCHEMA = arrow.schema(
    [
        ("question_id", arrow.string()),
        ("question", arrow.string()),
        ("result", arrow.string()),
        ("final_answer", arrow.string()),
        ("grounding_confidence", arrow.string()),
        ("verified_count", arrow.int32()),
        ("statute_summary", arrow.string()),
        ("policy_summary", arrow.string()),
        ("missing_evidence", arrow.string()),
        ("unused_requirement_ids", arrow.list_(arrow.string())),
        ("composer", arrow.string()),
    ]
)

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

CITATIONS_SCHEMA = arrow.schema(
    [
        ("statement_id", arrow.string()),
        ("question_id", arrow.string()),
        ("requirement_id", arrow.string()),
        ("marker", arrow.string()),
        ("role", arrow.string()),
    ]
)


class Retrievals(pa.DataFrameModel):
    question_id: Series[str]
    chunk_id: Series[str]
    doc_id: Series[str]
    rank: Series[int] = pa.Field(ge=1)
    score: Series[float] = pa.Field(gt=0)
    retriever: Series[str]

    class Config:
        strict = True
        coerce = True


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


class Answers(pa.DataFrameModel):
    question_id: Series[str] = pa.Field(unique=True)
    question: Series[str]
    result: Series[str] = pa.Field(isin=["ANSWERED", "NO_AUTHORITATIVE_EVIDENCE"])
    final_answer: Series[str] = pa.Field(str_length={"min_value": 1})
    grounding_confidence: Series[str] = pa.Field(isin=["high", "medium", "low", "insufficient"])
    verified_count: Series[int] = pa.Field(ge=0)
    statute_summary: Series[str] = pa.Field(nullable=True)
    policy_summary: Series[str] = pa.Field(nullable=True)
    missing_evidence: Series[str] = pa.Field(nullable=True)
    unused_requirement_ids: Series[object]
    composer: Series[str]

    class Config:
        strict = True
        coerce = True


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


class Citations(pa.DataFrameModel):
    statement_id: Series[str]
    question_id: Series[str]
    requirement_id: Series[str] = pa.Field(str_matches=REQUIREMENT_ID)
    marker: Series[str] = pa.Field(str_matches=r"^\[REQ-[SP]\d{4,}\]$")
    role: Series[str] = pa.Field(isin=["primary", "alternate"])

    class Config:
        strict = True
        coerce = True
