"""`groundwork gc --keep N`: remove the Parquet files and reports of old runs.

The N newest runs that wrote tables are kept, and so is every run a `current_*` view reads,
however old, and every run whose parts a kept run's lineage reads (an incremental run's unchanged
documents live in the parts of the run that last computed them). Runs keep their row in `runs`
(history stays), marked with `collected_at`. It takes the warehouse's run lock, so it never
removes the files of a run in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from groundwork.runtime.failpoints import failpoint
from groundwork.warehouse.lineage import LINEAGE_TABLES, lineage_runs
from groundwork.warehouse.parquet import PARQUET_TABLES
from groundwork.warehouse.sqlfiles import query, run_script
from groundwork.warehouse.store import Warehouse
from groundwork.warehouse.views import refresh_views


@dataclass(frozen=True)
class Collection:
    """What a gc did: the runs whose files it removed, and the old runs it kept because the
    lineage of a kept run reads their parts."""

    removed: list[str]
    referenced: list[str]
    results: int = 0  # Prefect task results removed (Warehouse.results_dir)


def referenced_runs(warehouse: Warehouse, kept: set[str]) -> set[str]:
    """The runs whose parts the lineage of any of the `kept` runs reads."""
    found: set[str] = set()
    for table in LINEAGE_TABLES:
        for run_id in set(warehouse.committed_runs(table)) & kept:
            found |= set(lineage_runs(warehouse, table, run_id))
    return found


def collection(warehouse: Warehouse, keep: int) -> Collection:
    """Remove the files of runs beyond the newest `keep` (never the published one, nor a run
    whose parts a kept run reads)."""
    with warehouse.run_lock("gc"), warehouse.connect() as con:
        old = [r for (r,) in query(con, "runs/collectable", {"keep": keep}).fetchall()]
        committed = {r for table in PARQUET_TABLES for r in warehouse.committed_runs(table)}
        referenced = referenced_runs(warehouse, committed - set(old))
        runs = [r for r in old if r not in referenced]
        for run_id in runs:
            for folder in run_folders(warehouse, run_id):
                folder.rename(warehouse.collecting_dir(folder))
            failpoint("gc")
        con.execute("BEGIN TRANSACTION")
        if runs:
            run_script(con, "runs/collected", {"run_ids": runs})
        refresh_views(con, warehouse)
        con.execute("COMMIT")
        warehouse.discard_leftovers()
        (oldest,) = query(con, "runs/oldest_kept_start").fetchone()
        results = stale_results(warehouse, oldest)
        for path in results:
            path.unlink(missing_ok=True)
    return Collection(runs, sorted(set(old) & referenced), len(results))


def stale_results(warehouse: Warehouse, oldest_kept: float | None) -> list[Path]:
    """The Prefect task results no kept run can use: written before the oldest run gc keeps
    started (a retry or a --from-stage rerun of a kept run reads only results written since
    its start). With no run kept, none is stale."""
    folder = warehouse.results_dir()
    if oldest_kept is None or not folder.is_dir():
        return []
    return [p for p in folder.iterdir() if p.is_file() and p.stat().st_mtime < oldest_kept]


def run_folders(warehouse: Warehouse, run_id: str) -> list[Path]:
    """The folders of a run's files that exist: one per table it wrote, and its reports."""
    folders = [warehouse.run_dir(table, run_id) for table in PARQUET_TABLES]
    return [f for f in [*folders, warehouse.root / "reports" / run_id] if f.is_dir()]
