"""The published snapshot of a run made from the one before it, where only what changed is written.

Building the snapshot whole (groundwork/warehouse/snapshot.py) copies every requirement of the
published run, quotes included, however little a run changed. So when the snapshot in place can
be updated, the snapshot of the run published now is that file copied beside the final name (a
file copy: the snapshot readers hold is not touched) with only what differs written:

- current_documents, current_requirements and dashboard_requirements, whose rows are by
  document: the rows of the documents in `changed_documents` (sql/snapshot/changed_documents.sql)
  deleted and written again, and in every other row the one column each run changes (the
  published run; a document's last_run) set in place;
- requirement_register and sources, large and keyed: the rows that differ from the previous
  snapshot's, each compared whole, replaced;
- every other table, small, written whole, and `published_run` last, as a whole build does.

It is then described, checkpointed and renamed into place as a whole build is, so every guarantee
of the snapshot holds, and its tables hold the same rows as a whole build's (only the order of a
table's rows may differ: none is promised).

It is built whole instead where the snapshot in place cannot be updated (missing, damaged, held
open for writing, of a run whose requirements are gone from the warehouse, or with other tables
or columns than this code writes, as after an upgrade), or where more than MAX_CHANGED_SHARE of
the documents changed: the update then writes about as much as a whole build, whose file holds
no deleted rows.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import duckdb

from groundwork.warehouse.lineage import document_runs, relation
from groundwork.warehouse.snapshot import (
    built_snapshot,
    finished_snapshot,
    partial_path,
    snapshot_path,
    snapshot_rows,
    snapshot_tables,
)
from groundwork.warehouse.sqlfiles import Sql, literal_list, query, relation_sql, run_script
from groundwork.warehouse.store import Warehouse

MAX_CHANGED_SHARE = 0.25


class Kept(NamedTuple):
    """How a table kept from the previous snapshot is updated."""

    key: str
    by_document: bool  # its changed rows are those of `changed_documents`, else of changed_<table>
    restamp: str | None  # the script setting the column every run changes in every row


KEPT = {
    "current_documents": Kept("doc_id", True, "snapshot/restamp_documents"),
    "current_requirements": Kept("doc_id", True, "snapshot/restamp_run"),
    "dashboard_requirements": Kept("doc_id", True, "snapshot/restamp_run"),
    "requirement_register": Kept("requirement_id", False, None),
    "sources": Kept("source_id", False, None),
}


class Changes(NamedTuple):
    """What an update of the snapshot replaces, by document."""

    documents: list[str]  # whose rows change (temp table `changed_documents`)
    active: int  # the documents of the run


def updated_snapshot(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    comparisons: Mapping[str, Sql] | None = None,
) -> Path:
    """Write the snapshot of the published run `run_id` beside its final name, as
    `built_snapshot` does (`comparisons`: see `snapshot_rows`), by updating the snapshot in place
    where it can; return where."""
    tables = snapshot_tables(con)
    kept = [name for name in tables if name in KEPT]
    changes = snapshot_changes(con, warehouse, run_id, kept)
    if changes is None or len(changes.documents) > MAX_CHANGED_SHARE * changes.active:
        return built_snapshot(con, warehouse, run_id, comparisons)
    partial = partial_path(warehouse)
    shutil.copyfile(snapshot_path(warehouse), partial)
    run_script(con, "snapshot/attach", path=str(partial.absolute()))
    try:
        # one transaction: each statement's own commit wrote its changes to the WAL, and the
        # run_id of every requirement set in place made that the update's largest cost
        con.execute("BEGIN TRANSACTION")
        try:
            _update(con, warehouse, run_id, tables, kept, changes.documents, comparisons)
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
    finally:
        run_script(con, "snapshot/detach", database=Sql("published"))
    return finished_snapshot(partial)


def snapshot_changes(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str, kept: list[str]
) -> Changes | None:
    """What differs between the snapshot in place and that of `run_id`: the documents whose rows
    do (also in temp table `changed_documents`), and for each table of `kept` compared by key
    the keys (temp table changed_<table>); None where the snapshot in place cannot be updated."""
    path = snapshot_path(warehouse)
    if not path.exists():
        return None
    try:
        run_script(con, "snapshot/attach_previous", path=str(path.absolute()))
    except duckdb.Error:  # held open for writing, or not a database
        return None
    try:
        if not _same_shape(con, kept):
            return None
        (previous,) = query(con, "snapshot/previous_run").fetchone() or (None,)
        if previous is None or not warehouse.run_dir("requirements", previous).exists():
            return None
        run_script(
            con,
            "snapshot/changed_documents",
            before=document_runs(warehouse, "requirements", previous),
            after=document_runs(warehouse, "requirements", run_id),
            documents=snapshot_rows("current_documents"),
        )
        for name in kept:
            if not KEPT[name].by_document:
                run_script(
                    con,
                    "snapshot/changed_rows",
                    table=Sql(name),
                    key=Sql(KEPT[name].key),
                    rows=snapshot_rows(name),
                )
        documents, active = query(con, "snapshot/changed_list").fetchone() or ([], 0)
        return Changes(documents, active)
    finally:
        run_script(con, "snapshot/detach", database=Sql("previous"))


def _same_shape(con: duckdb.DuckDBPyConnection, kept: list[str]) -> bool:
    """Whether the snapshot attached as `previous` has `published_run` and each kept table with
    the columns, and their types, that this code writes into it."""
    held = {name for (name,) in query(con, "snapshot/tables", {"database": "previous"}).fetchall()}
    if "published_run" not in held or not set(kept) <= held:
        return False
    return all(
        _columns(con, Sql(f"previous.{name}")) == _columns(con, snapshot_rows(name))
        for name in kept
    )


def _columns(con: duckdb.DuckDBPyConnection, relation: Sql) -> list[tuple[str, str]]:
    return query(con, "snapshot/columns", relation=relation).fetchall()


def _update(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    tables: list[str],
    kept: list[str],
    documents: list[str],
    comparisons: Mapping[str, Sql] | None,
) -> None:
    """Make the snapshot attached as `published` that of `run_id`: the tables not kept written
    whole again (`comparisons`: see `snapshot_rows`), the changed rows of the kept ones
    replaced (`documents`: the changed documents), then `published_run`."""
    for (name,) in query(con, "snapshot/tables", {"database": "published"}).fetchall():
        if name not in kept:
            run_script(con, "snapshot/drop", table=Sql(name))
    for name in tables:
        if name in kept:
            _replaced(con, warehouse, run_id, name, documents)
        else:
            rows = snapshot_rows(name, comparisons=comparisons)
            run_script(con, "snapshot/copy", table=Sql(name), rows=rows)
    run_script(con, "snapshot/published_run", {"run_id": run_id})


def _replaced(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    name: str,
    documents: list[str],
) -> None:
    """Replace the changed rows of a kept table (by document: those of `documents`), and set the
    column every run changes in the others.

    The documents go in as a list of constants, not as a query of `changed_documents`: DuckDB
    filters a view's rows by a list before its joins and aggregates (dashboard_requirements), by
    a query only after them; and their requirements are read from the parts of only the runs
    that hold them (groundwork/warehouse/lineage.py, `relation`)."""
    how = KEPT[name]
    if not how.by_document:
        keys: Sql | None = Sql(f"(SELECT {how.key} FROM changed_{name})")
        rows = snapshot_rows(name)
    elif documents:
        keys = literal_list(documents)
        held = relation(warehouse, "requirements", run_id, documents)
        published = relation_sql("warehouse/run_rows", run_id=run_id, rows=held)
        rows = snapshot_rows(name, requirements=Sql(f"({published})"))
    else:
        keys, rows = None, snapshot_rows(name)
    if keys is not None:
        run_script(
            con, "snapshot/replace_rows", table=Sql(name), key=Sql(how.key), rows=rows, keys=keys
        )
    if how.restamp:
        run_script(con, how.restamp, {"run_id": run_id}, table=Sql(name), documents=rows)
