"""Table `answers`: one composed answer per question, with its claim-level measures.

`unsupported_claim_rate`: the share of its claims that were unsupported or contradicted after
citation correction (published softened, or removed); `citation_coverage`: the share of the
question's verified requirements it cites; `corrections`: citation corrections made.
"""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

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


Answers = table_contract(
    {
        "question_id": pa.Column(str, unique=True),
        "question": pa.Column(str),
        "result": pa.Column(str, pa.Check.isin(["ANSWERED", "NO_AUTHORITATIVE_EVIDENCE"])),
        "final_answer": pa.Column(str, pa.Check.str_length(min_value=1)),
        "grounding_confidence": pa.Column(
            str, pa.Check.isin(["high", "medium", "low", "insufficient"])
        ),
        "verified_count": pa.Column(int, pa.Check.ge(0)),
        "statute_summary": pa.Column(str, nullable=True),
        "policy_summary": pa.Column(str, nullable=True),
        "missing_evidence": pa.Column(str, nullable=True),
        "unused_requirement_ids": pa.Column(object),
        "composer": pa.Column(str),
        "claims": pa.Column(int, pa.Check.ge(0)),
        "unsupported_claims": pa.Column(int, pa.Check.ge(0)),
        "unsupported_claim_rate": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)]),
        "citation_coverage": pa.Column(float, [pa.Check.ge(0), pa.Check.le(1)]),
        "corrections": pa.Column(int, pa.Check.ge(0)),
    },
    name="Answers",
)
