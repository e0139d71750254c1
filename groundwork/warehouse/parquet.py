"""Parquet parts: a stage writes a table's rows for a run as numbered part files in a staging
folder, and `commit` moves the folder into place in one step, so a crash leaves only a staging
folder that no view reads."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.runtime.failpoints import failpoint
from groundwork.warehouse.lineage import LINEAGE
from groundwork.warehouse.store import Warehouse

PART_ROWS = 250_000  # rows per part file (PartWriter)
PARQUET_TABLES = (
    "chunks",
    "candidates",
    "requirements",
    "questions",
    "retrievals",
    "verifications",
    "answers",
    "statements",
    "citations",
    "claims",
    "claim_numbers",
    "citation_corrections",
)


def part_writer(
    warehouse: Warehouse, table: str, run_id: str, staging: Path | None = None
) -> PartWriter:
    """A writer of one table's parts for a run, committed atomically; in the table's staging
    folder for the run, or in `staging` (the shard pass's, groundwork/warehouse/shard_parts.py)."""
    staging = staging or warehouse.staging_dir(table, run_id)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    return PartWriter(staging=staging, final=warehouse.run_dir(table, run_id))


@dataclass
class PartWriter:
    """Writes numbered Parquet parts into a staging folder; `commit` publishes them at once.

    Each table given to `write` becomes a row group, and a part takes row groups up to about
    PART_ROWS rows: a later run reading this one's rows through its lineage opens a few files,
    and a stage can still spread the row groups (whole documents each) over its workers.
    """

    staging: Path
    final: Path
    count: int = 0
    rows: int = 0
    part_rows: int = 0
    open_part: pq.ParquetWriter | None = None

    def next_path(self) -> Path:
        """The path of the next part, for writers (such as DuckDB's COPY) that write it."""
        self.close_part()
        path = self.staging / f"part-{self.count:05d}.parquet"
        self.count += 1
        return path

    @property
    def lineage_path(self) -> Path:
        """Where the table's lineage is written (see the module docstring)."""
        return self.staging / LINEAGE

    def write(self, table: pa.Table) -> None:
        """Write the table as a row group of the open part (a new part after PART_ROWS)."""
        if self.open_part is None:
            self.open_part = pq.ParquetWriter(self.next_path(), table.schema, compression="zstd")
        self.open_part.write_table(table, row_group_size=max(table.num_rows, 1))
        self.rows += table.num_rows
        self.part_rows += table.num_rows
        if self.part_rows >= PART_ROWS:
            self.close_part()

    def close_part(self) -> None:
        """Finish the open part, if any."""
        if self.open_part is not None:
            self.open_part.close()
            self.open_part, self.part_rows = None, 0

    def ensure_part(self, schema: pa.Schema) -> None:
        """Write an empty part if the run computed no rows, so that its parts are always
        readable (a run with no rows, or one that reuses every document's)."""
        if self.count == 0:
            self.write(schema.empty_table())
        self.close_part()

    def commit(self) -> Path:
        """Move the staging folder into place (replacing an earlier attempt of the same run)."""
        self.close_part()
        if self.count == 0:
            raise RuntimeError(f"nothing was written to {self.staging}")
        failpoint(f"commit:{self.staging.parent.name}")
        if self.final.exists():
            shutil.rmtree(self.final)
        os.replace(self.staging, self.final)
        return self.final


def write_run_table(warehouse: Warehouse, table: str, run_id: str, data: pa.Table) -> int:
    """Write a whole (small) table for a run as one committed part; returns its row count."""
    writer = part_writer(warehouse, table, run_id)
    writer.write(data)
    writer.commit()
    return data.num_rows
