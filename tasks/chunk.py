"""Stage `chunks`: the section-aware chunks (groundwork/text/chunks.py) of every document changed
since the reused run, in Parquet parts of whole documents; the other documents' chunks are taken
from earlier runs by lineage."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.runtime.batches import mapped, worker_count
from groundwork.runtime.progress import stage_progress
from groundwork.text.chunks import checked_chunks
from groundwork.warehouse.incremental import fresh_documents_sql, lineage_sql
from groundwork.warehouse.lineage import table_rows
from groundwork.warehouse.parquet import part_writer
from groundwork.warehouse.sqlfiles import Sql
from groundwork.warehouse.store import Warehouse
from schemas.chunks import ARROW_SCHEMA as CHUNKS_SCHEMA
from schemas.config import RunConfig


@task(name="chunk", cache_policy=NO_CACHE)
def chunk_stage(warehouse: Warehouse, run_id: str, config: RunConfig, reused: str | None) -> int:
    """Chunk every active document changed since the `reused` run (all of them without one) into
    Parquet parts, whole documents per row group, and record the lineage that takes the other
    documents' chunks from earlier runs; the run's chunks in all."""
    writer = part_writer(warehouse, "chunks", run_id)
    with warehouse.connect(read_only=True) as con:
        sql = fresh_documents_sql(warehouse, reused)
        totals = con.sql(sql).aggregate("count(*), coalesce(sum(n_chars), 0)")
        documents, size = totals.fetchone()
        bar = stage_progress("chunk", documents, "documents")
        reader = con.execute(sql).to_arrow_reader(config.batch_docs)
        batches = ((batch, config.chunk_max_chars) for batch in reader)
        workers = worker_count(config.workers, -(-documents // config.batch_docs), size)
        for table in mapped(checked_chunks, batches, workers):
            writer.write(table)
            bar.advance(len(table.column("doc_id").unique()))
        writer.ensure_part(CHUNKS_SCHEMA)
        processed = Sql(f"({sql})")
        con.execute(
            lineage_sql(warehouse, "chunks", run_id, reused, processed, writer.lineage_path)
        )
        writer.commit()
        rows = table_rows(con, warehouse, "chunks", run_id)
    bar.finish()
    return rows
