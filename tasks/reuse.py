"""Incremental runs: per-document outputs of the published run, reused for unchanged documents.

A document whose text has not changed since the published run (`documents.changed_run` at or
before it) is not chunked or extracted again, and so never re-sent to a model: its chunks and
candidates are copied from that run with one DuckDB COPY each. Reuse needs the same config and
stage code versions as that run; otherwise everything is computed afresh.
"""

from __future__ import annotations

from groundwork.sqlfiles import literal_sql, query
from groundwork.warehouse import PartWriter, Warehouse
from schemas.config import RunConfig


def reuse_source(
    warehouse: Warehouse, run_id: str, config: RunConfig, code_version: str
) -> str | None:
    """The published run this run may reuse per-document outputs from, if any."""
    with warehouse.connect(read_only=True) as con:
        row = query(
            con,
            "reuse/source_run",
            {"run_id": run_id, "config_hash": config.digest(), "code_version": code_version},
        ).fetchone()
    return row[0] if row else None


def copied_rows(warehouse: Warehouse, table: str, reused: str, writer: PartWriter) -> int:
    """Copy the reused run's rows of unchanged documents into the writer; rows copied."""
    source = warehouse.run_dir(table, reused) / "part-*.parquet"
    sql = literal_sql("reuse/copy_rows", source=source, reused=reused, target=writer.reused_path())
    with warehouse.connect(read_only=True) as con:
        (rows,) = con.execute(sql).fetchone()
    writer.rows += rows
    return rows


def fresh_documents_sql(warehouse: Warehouse, reused: str | None) -> str:
    """The query for the documents this run must process itself."""
    if reused is None:
        return literal_sql("ingest/active_documents")
    chunks = warehouse.run_dir("chunks", reused) / "part-*.parquet"
    return literal_sql("reuse/fresh_documents", reused=reused, chunks=chunks)
