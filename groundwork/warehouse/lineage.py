"""Lineage: which runs' parts hold a run's rows of a per-document table, and the run's whole
table as one SQL relation.

The per-document tables (chunks, candidates, requirements) are not copied for documents a run
reuses. A run's parts hold the rows it computed; its `lineage.parquet` names, for every document
of the run, the run whose parts hold that document's rows (`doc_id`, `from_run`). `relation`
turns that into the run's whole table, and every reader goes through it. A run folder without a
lineage file (every other table, and runs written before lineage) is its parts alone.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from groundwork.warehouse.sqlfiles import (
    Sql,
    literal,
    literal_list,
    literal_sql,
    parquet_relation,
    relation_sql,
)
from groundwork.warehouse.store import Warehouse

LINEAGE = "lineage.parquet"
LINEAGE_TABLES = ("chunks", "candidates", "requirements")  # rows keyed by document, reusable


def lineage_path(warehouse: Warehouse, table: str, run_id: str) -> Path:
    """Where a run's lineage of a per-document table is (it may not exist)."""
    return warehouse.run_dir(table, run_id) / LINEAGE


def lineage_runs(
    warehouse: Warehouse, table: str, run_id: str, documents: list[str] | None = None
) -> list[str]:
    """The runs whose parts hold a run's rows of a table (or of some `documents` of it):
    itself, and those it reuses."""
    lineage = lineage_path(warehouse, table, run_id)
    if not lineage.exists():
        return [run_id]
    held = [("doc_id", "in", documents)] if documents is not None else None
    earlier = pq.read_table(lineage, columns=["from_run"], filters=held).column("from_run")
    return sorted(set(earlier.unique().to_pylist()) | {run_id})


def own_relation(warehouse: Warehouse, table: str, run_id: str) -> Sql:
    """The rows a run computed itself (its parts), as a relation for SQL."""
    return parquet_relation(warehouse.sql_path(warehouse.run_dir(table, run_id) / "part-*.parquet"))


def relation(
    warehouse: Warehouse, table: str, run_id: str, documents: list[str] | None = None
) -> Sql:
    """A run's whole table as a relation for SQL: its parts, and for a table with a lineage
    the rows of each document from the run its lineage names. With `documents` (not empty),
    only their rows, read from the parts of only the runs that hold them: DuckDB reads every
    column of every part it is given before a join on `doc_id` leaves out the rest."""
    lineage = lineage_path(warehouse, table, run_id)
    if not lineage.exists():
        return _documents_only(own_relation(warehouse, table, run_id), documents)
    runs = lineage_runs(warehouse, table, run_id, documents)
    parts = ", ".join(
        literal(warehouse.sql_path(warehouse.run_dir(table, r) / "part-*.parquet")) for r in runs
    )
    held = _documents_only(parquet_relation(warehouse.sql_path(lineage)), documents)
    return relation_sql("warehouse/lineage_relation", parts=Sql(f"[{parts}]"), lineage=held)


def _documents_only(rows: Sql, documents: list[str] | None) -> Sql:
    if documents is None:
        return rows
    return relation_sql("warehouse/documents_only", rows=rows, documents=literal_list(documents))


def document_runs(warehouse: Warehouse, table: str, run_id: str) -> Sql:
    """Each document of a run's table with the run whose parts hold its rows (`doc_id`,
    `from_run`), as a relation for SQL: the run's lineage, or for a run without one the run
    itself. Two runs that name the same run for a document hold the same rows of it."""
    lineage = lineage_path(warehouse, table, run_id)
    if lineage.exists():
        return parquet_relation(warehouse.sql_path(lineage))
    return relation_sql(
        "warehouse/own_document_runs", rows=own_relation(warehouse, table, run_id), run_id=run_id
    )


def table_rows(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, table: str, run_id: str
) -> int:
    """The number of rows in a run's committed table (its lineage followed)."""
    sql = literal_sql("warehouse/table_rows", table=relation(warehouse, table, run_id))
    (rows,) = con.execute(sql).fetchone()
    return rows


def run_parts(warehouse: Warehouse, run_id: str, *tables: str) -> dict[str, Sql]:
    """A run's tables as relations, by table, for SQL placeholders."""
    return {t: relation(warehouse, t, run_id) for t in tables}
