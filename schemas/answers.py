"""Table `answers`: one composed answer per question, with its claim-level measures.

`unsupported_claim_rate`: the share of its claims that were unsupported or contradicted after
citation correction (published softened, or removed); `citation_coverage`: the share of the
question's verified requirements it cites; `corrections`: citation corrections made.
"""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

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
        ("claims", arrow.int32()),
        ("unsupported_claims", arrow.int32()),
        ("unsupported_claim_rate", arrow.float64()),
        ("citation_coverage", arrow.float64()),
        ("corrections", arrow.int32()),
    ]
)


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
    claims: Series[int] = pa.Field(ge=0)
    unsupported_claims: Series[int] = pa.Field(ge=0)
    unsupported_claim_rate: Series[float] = pa.Field(ge=0, le=1)
    citation_coverage: Series[float] = pa.Field(ge=0, le=1)
    corrections: Series[int] = pa.Field(ge=0)

    class Config:
        strict = True
        coerce = True
