"""The views over the Parquet tables: `<table>` (every run) and `current_<table>` (the published
run), and the register and dashboard views built on them, (re)created after every publication."""

from __future__ import annotations

import duckdb

from groundwork.warehouse.comments import apply_comments
from groundwork.warehouse.lineage import LINEAGE_TABLES, relation
from groundwork.warehouse.parquet import PARQUET_TABLES
from groundwork.warehouse.schema import column_names
from groundwork.warehouse.sqlfiles import Sql, query, relation_sql, run_script
from groundwork.warehouse.store import Warehouse


def _all_runs(warehouse: Warehouse, table: str) -> Sql:
    """The rows of every run of a table, with their `run_id`."""
    if table not in LINEAGE_TABLES:
        pattern = warehouse.sql_path(warehouse.table_dir(table) / "run_id=*" / "part-*.parquet")
        return relation_sql("warehouse/hive_rows", pattern=pattern)
    return Sql(
        "\nUNION ALL BY NAME\n".join(
            relation_sql(
                "warehouse/run_rows", run_id=run_id, rows=relation(warehouse, table, run_id)
            )
            for run_id in warehouse.committed_runs(table)
        )
    )


def refresh_views(con: duckdb.DuckDBPyConnection, warehouse: Warehouse) -> None:
    """(Re)create `<table>` (all runs) and `current_<table>` (published run) views over Parquet."""
    published = dict(query(con, "warehouse/published_runs").fetchall())
    for table in PARQUET_TABLES:
        if warehouse.committed_runs(table):
            run_script(
                con, "warehouse/all_runs_view", table=Sql(table), rows=_all_runs(warehouse, table)
            )
        if table in published:
            run_id = published[table]
            run_script(
                con,
                "warehouse/current_view",
                table=Sql(table),
                run_id=run_id,
                rows=relation(warehouse, table, run_id),
            )
    run_script(con, "views/register")
    run_script(con, "views/dashboard_run_failures")
    if "answers" in published:
        run_script(con, "views/audit_trail")
        run_script(con, "views/dashboard_requirements")
        run_script(con, "views/dashboard_answers_by_topic")
    if all(warehouse.committed_runs(t) for t in ("requirements", "answers", "citations")):
        latest = [run_id for (run_id,) in query(con, "diff/runs_to_compare").fetchall()]
        after, before = [*latest, None, None][:2]
        run_script(con, "views/changes", {"before": before, "after": after})
    if "verdict" in column_names(con, "statements"):  # absent from warehouses older than verdicts
        run_script(con, "views/dashboard_run_quality")
    if all(warehouse.committed_runs(t) for t in ("claims", "citation_corrections")):
        run_script(con, "views/dashboard_claim_quality")
    apply_comments(con)
