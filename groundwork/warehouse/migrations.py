"""Migrations: an older warehouse brought to this code's format, in place.

Every command does it first, before it opens the warehouse (the CLI's reading commands through
`existing_warehouse`, a run in the flow and before it), and `groundwork migrate` on its own; a
warehouse that is not migrated stops `Warehouse.connect` with WarehouseOlder. A migration:

- takes the steps after the warehouse's format (groundwork/warehouse/schema.py) in one
  transaction, so one cut short leaves the old format, never half of each; a copy of
  groundwork.duckdb stays beside it (`groundwork.duckdb.pre-migration`) until it commits;
- makes the views and their descriptions again, records itself in runs (status migrated), and
  writes published.duckdb again from the migrated warehouse;
- carries the register over, never renumbered: no step changes a row of requirement_registry.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import version
from pathlib import Path

import duckdb

from groundwork.warehouse.runs import new_run_id
from groundwork.warehouse.schema import FORMAT, Found, Step, apply_steps, found_format, pending
from groundwork.warehouse.snapshot import built_snapshot, snapshot_path
from groundwork.warehouse.sqlfiles import query, run_script
from groundwork.warehouse.store import Warehouse
from groundwork.warehouse.views import refresh_views

BACKUP_SUFFIX = ".pre-migration"


@dataclass(frozen=True)
class Migration:
    """A migration: the format it starts from, and its steps."""

    found: Found
    steps: tuple[Step, ...]


def backup_path(db_path: Path) -> Path:
    """Where the copy of groundwork.duckdb a migration keeps until it commits is."""
    return db_path.with_name(db_path.name + BACKUP_SUFFIX)


def planned(con: duckdb.DuckDBPyConnection, warehouse: Warehouse) -> Migration | None:
    """The migration a warehouse needs (None for a new one); WarehouseNewer for a newer one."""
    found = found_format(con, warehouse.root)
    return None if found is None else Migration(found, pending(warehouse.db_path, found))


def upgraded(warehouse: Warehouse) -> str | None:
    """Migrate a warehouse of an older format in place; the ID of the migration's row in runs,
    None when there was nothing to migrate (or no warehouse yet). WarehouseNewer for a newer
    warehouse."""
    if not warehouse.exists():
        return None
    with warehouse.connect(read_only=True, as_found=True) as con:  # most often: nothing to do
        migration = planned(con, warehouse)
    if migration is None or not migration.steps:
        return None
    with warehouse.connect(as_found=True) as con:
        migration = planned(con, warehouse)  # again, as the writer: another process may have
        if migration is None or not migration.steps:
            return None
        return migrated(con, warehouse, migration)


def migrated(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, migration: Migration) -> str:
    """Take a migration's steps in one transaction, with a copy of groundwork.duckdb kept beside
    it until the transaction commits; then write the published snapshot again. The ID of the
    migration's row in runs."""
    started = datetime.now()  # runs.started_at holds local time, as DuckDB's now() gives it
    con.execute("CHECKPOINT")  # everything in the file itself, so that the copy is whole
    backup = backup_path(warehouse.db_path)
    shutil.copyfile(warehouse.db_path, backup)
    run_id = new_run_id()
    con.execute("BEGIN TRANSACTION")
    try:
        apply_steps(con, warehouse.root, migration.steps)
        refresh_views(con, warehouse)  # made again in this format, described again
        run_script(
            con,
            "runs/migrated",
            {
                "run_id": run_id,
                "started_at": started,
                "finished_at": datetime.now(),
                "config": _said(migration),
            },
        )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    backup.unlink()
    _snapshot_rewritten(con, warehouse)
    return run_id


def _said(migration: Migration) -> str:
    """A migration as the runs table keeps it (its config)."""
    return json.dumps(
        {
            "migration": {
                "from_format": migration.found.format,
                "format_recorded": migration.found.recorded,
                "to_format": FORMAT,
                "steps": [step.change for step in migration.steps],
                "groundwork": version("groundwork"),
            }
        }
    )


def _snapshot_rewritten(con: duckdb.DuckDBPyConnection, warehouse: Warehouse) -> None:
    """Write published.duckdb again from the migrated warehouse, if a run is published: the one
    an older groundwork wrote (or none, before it wrote one) has that version's tables."""
    published = query(con, "runs/published").fetchone()
    if published is not None:
        os.replace(built_snapshot(con, warehouse, published[0]), snapshot_path(warehouse))
