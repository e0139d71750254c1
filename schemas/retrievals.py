"""Table `retrievals`: the chunks retrieved for each question, ranked."""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

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
