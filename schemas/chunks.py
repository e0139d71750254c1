"""Table `chunks`: section-aware pieces of a document with exact character offsets."""

import pandas as pd
import pandera.pandas as pa
import pyarrow as arrow

from schemas.contract import table_contract

ARROW_SCHEMA = arrow.schema(
    [
        ("chunk_id", arrow.string()),
        ("doc_id", arrow.string()),
        ("ordinal", arrow.int32()),
        ("section", arrow.string()),
        ("label_path", arrow.string()),
        ("heading", arrow.string()),
        ("char_start", arrow.int64()),
        ("char_end", arrow.int64()),
        ("text", arrow.string()),
        ("sha256", arrow.string()),
        ("n_words", arrow.int32()),
    ]
)


def text_length_matches_offsets(df: pd.DataFrame) -> pd.Series:
    """Rows whose text is exactly as long as its offsets say."""
    return df["text"].str.len() == df["char_end"] - df["char_start"]


Chunks = table_contract(
    {
        "chunk_id": pa.Column(str, unique=True),
        "doc_id": pa.Column(str),
        "ordinal": pa.Column(int, pa.Check.ge(0)),
        "section": pa.Column(str, nullable=True),
        "label_path": pa.Column(str, nullable=True),
        "heading": pa.Column(str, nullable=True),
        "char_start": pa.Column(int, pa.Check.ge(0)),
        "char_end": pa.Column(int, pa.Check.ge(1)),
        "text": pa.Column(str, pa.Check.str_length(min_value=1)),
        "sha256": pa.Column(str, pa.Check.str_matches(r"^[0-9a-f]{64}$")),
        "n_words": pa.Column(int, pa.Check.ge(0)),
    },
    checks=[pa.Check(text_length_matches_offsets)],
    name="Chunks",
    description="Offsets are ordered and the text length matches them (verbatim: checked in SQL).",
)
