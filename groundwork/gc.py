"""`groundwork gc --keep N`: remove the Parquet files and reports of old runs.

The N newest runs that wrote tables are kept, and so is every run a `current_*` view reads,
however old. Runs keep their row in `runs` (history stays), marked with `collected_at`. It takes
the warehouse's run lock, so it never removes the files of a run in progress.
"""

from __future__ import annotations

import shutil

from groundwork.sqlfiles import query, run_script
from groundwork.warehouse import PARQUET_TABLES, Warehouse, refresh_views


def collected_runs(warehouse: Warehouse, keep: int) -> list[str]:
    """Remove the files of runs beyond the newest `keep` (never the published one)."""
    with warehouse.run_lock("gc"), warehouse.connect() as con:
        runs = [r for (r,) in query(con, "runs/collectable", {"keep": keep}).fetchall()]
        for run_id in runs:
            for table in PARQUET_TABLES:
                shutil.rmtree(warehouse.run_dir(table, run_id), ignore_errors=True)
            shutil.rmtree(warehouse.root / "reports" / run_id, ignore_errors=True)
        if runs:
            run_script(con, "runs/collected", {"run_ids": runs})
        refresh_views(con, warehouse)
    return runs
