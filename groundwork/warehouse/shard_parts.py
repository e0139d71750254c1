"""The hand-off, on disk, from ingest's shard pass (groundwork/ingest/shard_pass.py) to the chunk
and extract stages, so that neither reads the text again when the pass already did their work.

Ingest writes the chunks and candidates its workers made into staging folders of their own
(`.staging-<run>.shards` under tables/chunks and tables/candidates), and beside the chunks the
key of every document the pass chunked (doc_id, citation, text hash). The chunk stage adopts the
chunks, moving their folder into place as its own parts, when those keys hold every document it
would chunk itself; the documents it would not (a duplicate doc_id rejected at merge, a text
unchanged since the reused run) are dropped from the parts first, unless one shares a doc_id
with a document it would chunk. A pass that missed a document (one changed by an earlier run
that was not published) is discarded and the stage chunks as it always did. When it adopts, it hands
the candidates on to extract (`.staging-<run>.adopted`).

Like every staging folder, these are leftovers to a run that starts or fails
(`Warehouse.discard_leftovers`), so a folder a stage finds was made in this attempt of the run,
under its config: a stage forced by `from_stage` or `only`, or one retried after the stages
before it came back cached, finds none and computes from DuckDB.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from groundwork.ingest.shard_pass import Shard
from groundwork.warehouse.parquet import PartWriter, part_writer
from groundwork.warehouse.sqlfiles import Sql, parquet_relation, query
from groundwork.warehouse.store import Warehouse

KEYS = "documents.parquet"  # the keys of the documents the pass chunked, beside their chunks
_KEY_SCHEMA = pa.schema(
    [("doc_id", pa.string()), ("citation", pa.string()), ("sha256", pa.string())]
)


def shard_folder(warehouse: Warehouse, table: str, run_id: str, state: str) -> Path:
    """Where the shard pass's parts of a table are: `shards` as ingest wrote them, `adopted`
    once the chunk stage took the pass's chunks (candidates only)."""
    return warehouse.table_dir(table) / f".staging-{run_id}.{state}"


class ShardParts:
    """Ingest's writer of what its shard pass made: chunks, candidates and document keys. A pass
    with a batch it did not chunk is no pass: its folders are removed, and the stages compute."""

    def __init__(self, warehouse: Warehouse, run_id: str) -> None:
        self.folders = [
            shard_folder(warehouse, table, run_id, "shards") for table in ("chunks", "candidates")
        ]
        self.chunks = part_writer(warehouse, "chunks", run_id, self.folders[0])
        self.candidates = part_writer(warehouse, "candidates", run_id, self.folders[1])
        self.keys: pq.ParquetWriter | None = pq.ParquetWriter(self.folders[0] / KEYS, _KEY_SCHEMA)

    def write(self, shard: Shard) -> None:
        """Write one shard's chunks and candidates (a row group each) and its documents' keys."""
        if self.keys is None or not shard.documents.num_rows:
            return
        if shard.chunks is None or shard.candidates is None:
            self.close()
            for folder in self.folders:
                shutil.rmtree(folder)
            self.keys = None
            return
        self.keys.write_table(shard.documents.select(_KEY_SCHEMA.names).cast(_KEY_SCHEMA))
        self.chunks.write(shard.chunks)
        self.candidates.write(shard.candidates)

    def close(self) -> None:
        """Finish the open files, for the stages to read."""
        if self.keys is not None:
            self.keys.close()
        self.chunks.close_part()
        self.candidates.close_part()


def adopted_chunks(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str, fresh: str
) -> PartWriter | None:
    """The shard pass's chunks as the run's chunk parts, to commit, when the documents it chunked
    are exactly those of the `fresh` query (the stage's own), and the pass's candidates handed
    on to extract; None, with both discarded, otherwise or when there was no pass."""
    chunks = shard_folder(warehouse, "chunks", run_id, "shards")
    candidates = shard_folder(warehouse, "candidates", run_id, "shards")
    keys = chunks / KEYS
    if keys.exists() and candidates.exists():
        passed = parquet_relation(warehouse.sql_path(keys))
        missing, extra, clashing = query(
            con, "reuse/shard_pass_differences", fresh=Sql(f"({fresh})"), passed=passed
        ).fetchone()
        if not missing and not clashing:
            keys.unlink()
            if extra:  # a duplicate doc_id rejected at merge: the rest of the pass still holds
                for folder in (chunks, candidates):
                    rewritten_parts(folder, extra)
            os.replace(candidates, shard_folder(warehouse, "candidates", run_id, "adopted"))
            return _staged(warehouse, "chunks", run_id, chunks)
    shutil.rmtree(chunks, ignore_errors=True)
    shutil.rmtree(candidates, ignore_errors=True)
    return None


def rewritten_parts(folder: Path, doc_ids: list[str]) -> list[Path]:
    """The parts in `folder` that held rows of these documents, each rewritten without them, row
    group by row group (a row group holds whole documents, and one left empty is dropped). A part
    without them is left as it is, read no further than its doc_id column: the few documents a
    merge rejects sit in one or two parts of a large corpus's many."""
    dropped = pa.array(doc_ids, pa.string())
    rewritten = []
    for part in sorted(folder.glob("part-*.parquet")):
        source = pq.ParquetFile(part)
        held = source.read(columns=["doc_id"]).column("doc_id")
        if not pc.any(pc.is_in(held, value_set=dropped)).as_py():
            continue
        kept = part.with_suffix(".kept")
        with pq.ParquetWriter(kept, source.schema_arrow, compression="zstd") as writer:
            for index in range(source.num_row_groups):
                group = source.read_row_group(index)
                group = group.filter(pc.invert(pc.is_in(group["doc_id"], value_set=dropped)))
                if group.num_rows:
                    writer.write_table(group, row_group_size=group.num_rows)
        os.replace(kept, part)
        rewritten.append(part)
    return rewritten


def adopted_candidates(warehouse: Warehouse, run_id: str) -> PartWriter | None:
    """The shard pass's candidates as the run's candidate parts, to commit, when the chunk stage
    adopted the pass's chunks in this attempt of the run; None otherwise."""
    folder = shard_folder(warehouse, "candidates", run_id, "adopted")
    return _staged(warehouse, "candidates", run_id, folder) if folder.exists() else None


def _staged(warehouse: Warehouse, table: str, run_id: str, folder: Path) -> PartWriter:
    """A writer holding the parts already in `folder`, to commit as the run's table."""
    parts = len(list(folder.glob("part-*.parquet")))
    return PartWriter(staging=folder, final=warehouse.run_dir(table, run_id), count=parts)
