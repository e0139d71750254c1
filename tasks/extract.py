"""Stage `candidates`: requirement candidates of the chunks this run computed, by the configured
extraction backend (groundwork/extract/); the documents the run reuses keep theirs, by the chunks'
lineage. When the chunk stage adopted ingest's shard pass, the candidates that pass made are
adopted with them (groundwork/warehouse/shard_parts.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.extract import extractor
from groundwork.extract.parts import checked_candidates, row_groups
from groundwork.runtime.batches import mapped, uncompressed_bytes, worker_count
from groundwork.runtime.progress import StageProgress, stage_progress
from groundwork.warehouse.lineage import lineage_path, table_rows
from groundwork.warehouse.parquet import PartWriter, part_writer
from groundwork.warehouse.shard_parts import adopted_candidates
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.requirements import CANDIDATES_SCHEMA


@task(name="extract", cache_policy=NO_CACHE)
def extract_stage(warehouse: Warehouse, run_id: str, config: RunConfig) -> int:
    """Extract requirement candidates from the chunk parts this run computed; returns the run's
    candidates in all."""
    parts = warehouse.parts("chunks", run_id)
    groups = row_groups(parts)
    bar = stage_progress("extract", len(groups), "batches")
    writer = adopted_candidates(warehouse, run_id)
    if writer is None:
        writer = _extracted(warehouse, run_id, config, (parts, groups), bar)
    else:
        bar.advance(len(groups))
    writer.ensure_part(CANDIDATES_SCHEMA)
    shutil.copyfile(lineage_path(warehouse, "chunks", run_id), writer.lineage_path)
    writer.commit()
    bar.finish()
    with warehouse.connect(read_only=True) as con:
        return table_rows(con, warehouse, "candidates", run_id)


def _extracted(
    warehouse: Warehouse,
    run_id: str,
    config: RunConfig,
    chunks: tuple[list[Path], list[tuple[Path, int]]],
    bar: StageProgress,
) -> PartWriter:
    """A writer holding the candidates of the run's `chunks` (its parts, and their row groups),
    extracted a row group at a time."""
    parts, groups = chunks
    writer = part_writer(warehouse, "candidates", run_id)
    with extractor(config, warehouse, run_id) as backend:
        units = [(backend, path, index) for path, index in groups]
        if backend.in_processes:
            workers = worker_count(config.workers, len(units), uncompressed_bytes(parts))
            tables = mapped(checked_candidates, units, workers)
        else:  # in this process, where the backend's model stage is open
            tables = map(checked_candidates, units)
        for table in tables:
            writer.write(table)
            bar.advance()
    return writer
