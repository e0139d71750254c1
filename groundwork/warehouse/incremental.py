"""Incremental runs: per-document outputs of the published run, reused for unchanged documents.

A document whose text has not changed since the published run (`documents.changed_run` at or
before it) is not chunked or extracted again, and so never re-sent to a model. Its rows are not
copied either: the run's lineage (groundwork/warehouse/lineage.py)
names the earlier run whose parts hold
them. Reuse needs the same config and stage code versions as that run; otherwise everything is
computed afresh.
"""

from __future__ import annotations

from pathlib import Path

from groundwork.warehouse.lineage import lineage_path
from groundwork.warehouse.sqlfiles import Sql, literal_sql, query, relation_sql
from groundwork.warehouse.store import Warehouse
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
            published=relation_sql("runs/published"),
        ).fetchone()
    return row[0] if row else None


def fresh_documents_sql(warehouse: Warehouse, reused: str | None) -> str:
    """The query for the documents this run must process itself."""
    if reused is None:
        return literal_sql("ingest/active_documents")
    lineage = lineage_path(warehouse, "chunks", reused)
    return literal_sql("reuse/fresh_documents", reused=reused, lineage=lineage)


def lineage_sql(
    warehouse: Warehouse, table: str, run_id: str, reused: str | None, processed: Sql, target: Path
) -> str:
    """The statement that writes the lineage of a run's table to `target`: the documents it
    `processed` (a relation with `doc_id`) are in its own parts, every other unchanged document
    is where the reused run's lineage says."""
    if reused is None:
        return literal_sql("reuse/own_lineage", processed=processed, run_id=run_id, target=target)
    return literal_sql(
        "reuse/lineage",
        processed=processed,
        run_id=run_id,
        reused=reused,
        reused_lineage=lineage_path(warehouse, table, reused),
        target=target,
    )
