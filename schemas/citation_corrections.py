"""Table `citation_corrections`: every change to a claim's citations, with its reason.

For a claim its citation does not support, the question's verified requirements are searched
(BM25) for a better one: REPLACE (the old citation does not support the claim, the new one
does), ADD_ALTERNATE (the old one supports it only partly, the new one fully; both are cited),
REMOVE (a second citation that does not support the claim, while another one does).
"""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.claims import VERDICTS
from schemas.contract import table_contract
from schemas.ids import REQUIREMENT_ID

CITATION_CORRECTIONS_SCHEMA = arrow.schema(
    [
        ("claim_id", arrow.string()),
        ("statement_id", arrow.string()),
        ("question_id", arrow.string()),
        ("action", arrow.string()),
        ("from_requirement_id", arrow.string()),
        ("to_requirement_id", arrow.string()),
        ("verdict_before", arrow.string()),
        ("verdict_after", arrow.string()),
        ("score", arrow.float64()),
        ("reason", arrow.string()),
    ]
)


CitationCorrections = table_contract(
    {
        "claim_id": pa.Column(str),
        "statement_id": pa.Column(str),
        "question_id": pa.Column(str),
        "action": pa.Column(str, pa.Check.isin(["REPLACE", "ADD_ALTERNATE", "REMOVE"])),
        "from_requirement_id": pa.Column(str, pa.Check.str_matches(REQUIREMENT_ID), nullable=True),
        "to_requirement_id": pa.Column(str, pa.Check.str_matches(REQUIREMENT_ID), nullable=True),
        "verdict_before": pa.Column(str, pa.Check.isin(VERDICTS)),
        "verdict_after": pa.Column(str, pa.Check.isin(VERDICTS)),
        "score": pa.Column(float, nullable=True),
        "reason": pa.Column(str),
    },
    name="CitationCorrections",
)
