"""The rules extractor run on one document, for the tests of what it quotes."""

from __future__ import annotations

import pyarrow as pa

from groundwork.extract.rules import candidates
from groundwork.text.chunks import chunks


def extracted(text: str, citation: str | None = None, max_chars: int = 1500) -> list[dict]:
    """The rules' candidate requirements in one document, as the extract stage finds them."""
    docs = pa.table({"doc_id": ["d"], "citation": [citation], "text": [text]})
    return candidates(chunks(docs, max_chars)).to_pylist()
