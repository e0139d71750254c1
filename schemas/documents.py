"""Table `documents`: one row per ingested document, text normalised, offsets index into it."""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

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


class Documents(pa.DataFrameModel):
    """Contract of an ingested batch, checked before it reaches DuckDB."""

    doc_id: Series[str] = pa.Field(str_length={"min_value": 1})  # duplicates: see ingest SQL
    path: Series[str]
    format: Series[str] = pa.Field(isin=["markdown", "text", "html", "pdf", "collection"])
    source_type: Series[str] = pa.Field(isin=["statute", "regulation", "policy"])
    title: Series[str]
    citation: Series[str] = pa.Field(nullable=True)
    jurisdiction: Series[str] = pa.Field(nullable=True)
    url: Series[str] = pa.Field(nullable=True)
    effective_date: Series[str] = pa.Field(nullable=True)
    retrieved: Series[str] = pa.Field(nullable=True)
    hierarchy: Series[object]
    metadata: Series[str]
    text: Series[str] = pa.Field(str_length={"min_value": 1})
    sha256: Series[str] = pa.Field(str_matches=r"^[0-9a-f]{64}$")

    class Config:
        strict = True
        coerce = True
