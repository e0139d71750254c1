"""Extraction over the chunk stage's Parquet parts, one row group at a time: each row group holds
whole documents in order (as the chunk stage wrote them), so it is a unit of work that a worker
process can read, extract and check on its own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from schemas.contract import checked
from schemas.requirements import Candidates

if TYPE_CHECKING:
    from groundwork.extract import Extractor


def row_groups(parts: list[Path]) -> list[tuple[Path, int]]:
    """(part, row group index) of every row group of the parts, in order."""
    return [(path, i) for path in parts for i in range(pq.ParquetFile(path).num_row_groups)]


def checked_candidates(unit: tuple[Extractor, Path, int]) -> pa.Table:
    """Worker entry point: the candidates of one row group of a chunk part, by `Extractor`,
    checked against their contract."""
    backend, path, index = unit
    return checked_extraction(backend, pq.ParquetFile(path).read_row_group(index))


def checked_extraction(backend: Extractor, chunks: pa.Table) -> pa.Table:
    """The candidates of chunks that hold whole documents, by `Extractor`, checked against
    their contract where they are made (in the worker)."""
    return checked(backend.candidates(chunks), Candidates, "candidates")
