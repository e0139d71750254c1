"""Table `documents`: one row per ingested document, text normalised, offsets index into it."""

import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import ID_CHECK, table_contract

ARROW_SCHEMA = arrow.schema(
    [
        ("doc_id", arrow.string()),
        ("path", arrow.string()),
        ("format", arrow.string()),
        ("source_type", arrow.string()),
        ("title", arrow.string()),
        ("citation", arrow.string()),
        ("jurisdiction", arrow.string()),
        ("url", arrow.string()),
        ("effective_date", arrow.string()),
        ("retrieved", arrow.string()),
        ("hierarchy", arrow.list_(arrow.string())),
        ("metadata", arrow.string()),
        ("text", arrow.string()),
        ("sha256", arrow.string()),
    ]
)


Documents = table_contract(
    {
        "doc_id": pa.Column(str, ID_CHECK),  # duplicates: see ingest SQL
        "path": pa.Column(str),
        "format": pa.Column(str, pa.Check.isin(["markdown", "text", "html", "pdf", "collection"])),
        "source_type": pa.Column(str, pa.Check.isin(["statute", "regulation", "policy"])),
        "title": pa.Column(str),
        "citation": pa.Column(str, nullable=True),
        "jurisdiction": pa.Column(str, nullable=True),
        "url": pa.Column(str, nullable=True),
        "effective_date": pa.Column(str, nullable=True),
        "retrieved": pa.Column(str, nullable=True),
        "hierarchy": pa.Column(object),
        "metadata": pa.Column(str),
        "text": pa.Column(str, pa.Check.str_length(min_value=1)),
        "sha256": pa.Column(str, pa.Check.str_matches(r"^[0-9a-f]{64}$")),
    },
    name="Documents",
    description="Contract of an ingested batch, checked before it reaches DuckDB.",
)
