"""Reading a test's warehouse, and rewriting a copy of one to plant what a test needs."""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from groundwork.warehouse.lineage import lineage_path
from groundwork.warehouse.parquet import PARQUET_TABLES
from groundwork.warehouse.sqlfiles import SQL_DIR
from groundwork.warehouse.store import Warehouse

_VIEW = re.compile(r"CREATE OR REPLACE VIEW (\w+)", re.IGNORECASE)
# The dashboard views that sql/views/ creates, by name.
DASHBOARD_VIEWS = sorted(
    name for path in (SQL_DIR / "views").glob("*.sql") for name in _VIEW.findall(path.read_text())
)


def rows(warehouse: Path, sql: str) -> list[tuple]:
    """A query's rows, on a read-only connection as groundwork opens one (it waits the moment
    out while a run's background Data Docs job writes its row)."""
    with Warehouse(warehouse).connect(read_only=True) as con:
        return con.execute(sql).fetchall()


def duplicated_run(wh: Warehouse, good: str, run_id: str) -> None:
    """Copy a run's tables as run `run_id` (for tampering): its lineage then names the copy
    where it named `good`, so the copy reads its own parts."""
    for table in PARQUET_TABLES:
        shutil.copytree(wh.run_dir(table, good), wh.run_dir(table, run_id))
        lineage = lineage_path(wh, table, run_id)
        if lineage.exists():
            lines = pq.read_table(lineage)
            origin = pc.if_else(pc.equal(lines["from_run"], good), run_id, lines["from_run"])
            pq.write_table(lines.set_column(1, "from_run", origin), lineage)


def tampered_run(published: Path, tmp_path: Path, run_id: str) -> tuple[Warehouse, str]:
    """A copy of the warehouse with the published run duplicated as run_id, for tampering; the
    copy and the published run."""
    warehouse = tmp_path / "wh"
    shutil.copytree(published, warehouse)
    wh = Warehouse(warehouse)
    good = rows(warehouse, "SELECT run_id FROM publications LIMIT 1")[0][0]
    duplicated_run(wh, good, run_id)
    return wh, good


def rewrite(
    wh: Warehouse, table: str, run_id: str, change: Callable[[list[dict]], list[dict]]
) -> None:
    """Rewrite the first part of a run's table with `change` of its records."""
    part = wh.parts(table, run_id)[0]
    records = pq.read_table(part).to_pylist()
    pq.write_table(pa.Table.from_pylist(change(records), schema=pq.read_schema(part)), part)


def held_lock(warehouse: Warehouse, holder: str, seconds: float) -> threading.Thread:
    """A thread holding the warehouse's run lock as `holder` for `seconds`, once it holds it."""
    taken = threading.Event()

    def hold() -> None:
        with warehouse.run_lock(holder):
            taken.set()
            time.sleep(seconds)

    thread = threading.Thread(target=hold)
    thread.start()
    taken.wait()
    return thread


def wait_for_data_docs(warehouse: Path, run_id: str, timeout: float = 300) -> None:
    """Until the run's background Data Docs job has recorded its row
    (groundwork/quality/data_docs.py); after it nothing writes to the warehouse."""
    sql = (
        "SELECT count(*) FROM check_results WHERE run_id = ? AND check_name = 'great_expectations'"
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with Warehouse(warehouse).run_lock("test", wait=True):  # not while the job writes
            con = duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True)
            (found,) = con.execute(sql, [run_id]).fetchone()
            con.close()
        if found:
            return
        time.sleep(1)
    raise AssertionError(f"no Data Docs for {run_id} after {timeout} s")
