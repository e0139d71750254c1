"""Table `chunks`: section-aware pieces of a document with exact character offsets."""

import pandera.pandas as pa
import pyarrow as arrow
from pandera.typing import Series

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


class Chunks(pa.DataFrameModel):
    """Offsets are ordered and the text length matches them; the verbatim check is in SQL."""

    chunk_id: Series[str] = pa.Field(unique=True)
    doc_id: Series[str]
    ordinal: Series[int] = pa.Field(ge=0)
    section: Series[str] = pa.Field(nullable=True)
    label_path: Series[str] = pa.Field(nullable=True)
    heading: Series[str] = pa.Field(nullable=True)
    char_start: Series[int] = pa.Field(ge=0)
    char_end: Series[int] = pa.Field(ge=1)
    text: Series[str] = pa.Field(str_length={"min_value": 1})
    sha256: Series[str] = pa.Field(str_matches=r"^[0-9a-f]{64}$")
    n_words: Series[int] = pa.Field(ge=0)

    @pa.dataframe_check
    def text_length_matches_offsets(cls, df):
        return df["text"].str.len() == df["char_end"] - df["char_start"]

    class Config:
        strict = True
        coerce = True
