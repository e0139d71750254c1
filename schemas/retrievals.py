"""Table `retrievals`: the chunks retrieved for each question, ranked."""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

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


Retrievals = table_contract(
    {
        "question_id": pa.Column(str),
        "chunk_id": pa.Column(str),
        "doc_id": pa.Column(str),
        "rank": pa.Column(int, pa.Check.ge(1)),
        "score": pa.Column(float, pa.Check.gt(0)),
        "retriever": pa.Column(str),
    },
    name="Retrievals",
)
