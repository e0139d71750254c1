"""Stage `chunks`: the section-aware chunks (groundwork/text/chunks.py) of every document changed
since the reused run, in Parquet parts of whole documents; the other documents' chunks are taken
from earlier runs by lineage. When ingest's shard pass chunked exactly those documents, its parts
are adopted (groundwork/warehouse/shard_parts.py) and no text is read again."""

from __future__ import annotations

import duckdb
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.runtime.batches import mapped, worker_count
from groundwork.runtime.progress import StageProgress, stage_progress
from groundwork.text.chunks import checked_chunks
from groundwork.warehouse.incremental import fresh_documents_sql, lineage_sql
from groundwork.warehouse.lineage import table_rows
from groundwork.warehouse.parquet import PartWriter, part_writer
from groundwork.warehouse.shard_parts import adopted_chunks
from groundwork.warehouse.sqlfiles import Sql
from groundwork.warehouse.store import Warehouse
from schemas.chunks import ARROW_SCHEMA as CHUNKS_SCHEMA
from schemas.config import RunConfig


@task(name="chunk", cache_policy=NO_CACHE)
def chunk_stage(warehouse: Warehouse, run_id: str, config: RunConfig, reused: str | None) -> int:
    """Chunk every active document changed since the `reused` run (all of them without one) into
    Parquet parts, whole documents per row group, and record the lineage that takes the other
    documents' chunks from earlier runs; the run's chunks in all."""
    with warehouse.connect(read_only=True) as con:
        sql = fresh_documents_sql(warehouse, reused)
        totals = con.sql(sql).aggregate("count(*), coalesce(sum(n_chars), 0)").fetchone()
        bar = stage_progress("chunk", totals[0], "documents")
        writer = adopted_chunks(con, warehouse, run_id, sql)
        if writer is None:
            writer = _chunked(con, warehouse, run_id, (sql, totals), config, bar)
        else:
            bar.advance(totals[0])
        writer.ensure_part(CHUNKS_SCHEMA)
        processed = Sql(f"({sql})")
        con.execute(
            lineage_sql(warehouse, "chunks", run_id, reused, processed, writer.lineage_path)
        )
        writer.commit()
        rows = table_rows(con, warehouse, "chunks", run_id)
    bar.finish()
    return rows


def _chunked(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    fresh: tuple[str, tuple[int, int]],
    config: RunConfig,
    bar: StageProgress,
) -> PartWriter:
    """A writer holding the chunks of the documents of the `fresh` query (with their number and
    size), chunked in workers."""
    writer = part_writer(warehouse, "chunks", run_id)
    sql, (documents, size) = fresh
    reader = con.execute(sql).to_arrow_reader(config.batch_docs)
    batches = ((batch, config.chunk_max_chars) for batch in reader)
    workers = worker_count(config.workers, -(-documents // config.batch_docs), size)
    for table in mapped(checked_chunks, batches, workers):
        writer.write(table)
        bar.advance(len(table.column("doc_id").unique()))
    return writer
