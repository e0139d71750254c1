"""Table `verifications`: the grounding gate's verdict on each (question, requirement) pair."""

import pandas as pd
import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract
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
        ("score", arrow.float64()),
        ("threshold", arrow.float64()),
        ("model_version", arrow.string()),
    ]
)


def reason_iff_rejected(df: pd.DataFrame) -> pd.Series:
    """Rows that give a rejection reason exactly when the requirement was not verified."""
    return df["verified"] == df["rejection_reason"].isna()


Verifications = table_contract(
    {
        "question_id": pa.Column(str),
        "requirement_id": pa.Column(str, pa.Check.str_matches(REQUIREMENT_ID)),
        "chunk_id": pa.Column(str),
        "chunk_rank": pa.Column(int, pa.Check.ge(1)),
        "verified": pa.Column(bool),
        "rejection_reason": pa.Column(str, pa.Check.isin(REJECTION_REASONS), nullable=True),
        "rationale": pa.Column(str, pa.Check.str_length(min_value=1)),
        "quote_coverage": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)]),
        "chunk_coverage": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)]),
        "matched_terms": pa.Column(object),
        "verifier": pa.Column(str),
        "score": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)], nullable=True),
        "threshold": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)], nullable=True),
        "model_version": pa.Column(str, nullable=True),
    },
    checks=[pa.Check(reason_iff_rejected)],
    name="Verifications",
)
