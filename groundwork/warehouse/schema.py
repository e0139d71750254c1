"""The warehouse's own tables in groundwork.duckdb, created by the first writer."""

from __future__ import annotations

import duckdb

from groundwork.warehouse.comments import apply_comments
from groundwork.warehouse.sqlfiles import query, run_script


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether `name` is a base table (a view or nothing is not)."""
    return bool(query(con, "warehouse/is_table", {"name": name}).fetchone()[0])


def create_or_migrate(con: duckdb.DuckDBPyConnection) -> None:
    """Create the warehouse's tables, and bring those an older groundwork wrote to this layout
    (each step finds nothing to do once done). One transaction: a migration cut short leaves
    the old layout, never half of each."""
    con.execute("BEGIN TRANSACTION")
    keyed_registry = _key_constraints(con, "requirement_registry") > 0
    if keyed_registry:
        run_script(con, "ddl/registry_set_aside")
    run_script(con, "ddl/warehouse")
    if keyed_registry:
        run_script(con, "ddl/registry_restore")
    if _is_table(con, "documents"):
        run_script(con, "ddl/split_document_texts")
    run_script(con, "ddl/documents_view")
    apply_comments(con)  # the view just made again has lost its own
    con.execute("COMMIT")


def _key_constraints(con: duckdb.DuckDBPyConnection, table: str) -> int:
    """How many primary-key or unique constraints `table` has (0 if there is no such table)."""
    return int(query(con, "warehouse/key_constraints", {"name": table}).fetchone()[0])
