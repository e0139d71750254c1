"""Table `rejected_documents`: every file or record that did not become a document, and why."""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

ARROW_SCHEMA = arrow.schema(
    [
        ("path", arrow.string()),
        ("record", arrow.string()),
        ("doc_id", arrow.string()),
        ("reason", arrow.string()),
        ("detail", arrow.string()),
    ]
)

REASONS = [
    "empty",
    "binary",
    "undecodable",
    "oversized",
    "front_matter",
    "bad_metadata",
    "unsupported",
    "unreadable",
    "unreadable_pdf",
    "bad_json",
    "bad_record",
    "no_text_column",
    "duplicate_doc_id",
]


class RejectedDocuments(pa.DataFrameModel):
    """One line per rejection, naming the file (and the record inside a collection)."""

    path: Series[str] = pa.Field(str_length={"min_value": 1})
    record: Series[str] = pa.Field(nullable=True)
    doc_id: Series[str] = pa.Field(nullable=True)
    reason: Series[str] = pa.Field(isin=REASONS)
    detail: Series[str]

    class Config:
        strict = True
        coerce = True
