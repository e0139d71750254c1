"""Table `rejected_documents`: every file or record that did not become a document, and why."""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

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
    "bad_doc_id",
    "symlink",
    "not_a_file",
    "changed_while_read",
    "bad_sidecar",
    "bad_defaults",
    "unused_sidecar",
]


RejectedDocuments = table_contract(
    {
        "path": pa.Column(str, pa.Check.str_length(min_value=1)),
        "record": pa.Column(str, nullable=True),
        "doc_id": pa.Column(str, nullable=True),
        "reason": pa.Column(str, pa.Check.isin(REASONS)),
        "detail": pa.Column(str),
    },
    name="RejectedDocuments",
    description="One line per rejection, naming the file (and the record inside a collection).",
)
