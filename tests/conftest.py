"""Shared fixtures: the sample corpus, fresh warehouses, and a Prefect test harness."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from groundwork.warehouse.lineage import lineage_path
from groundwork.warehouse.parquet import PARQUET_TABLES
from groundwork.warehouse.store import Warehouse

REPO = Path(__file__).resolve().parent.parent
SAMPLE_CORPUS = REPO / "data" / "corpus"
SAMPLE_QUESTIONS = REPO / "data" / "questions.yaml"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The suite kills runs and holds warehouses on purpose, against the harness's Prefect server:
# there, runs fail fast at the run lock rather than queue behind a killed run's lease. The queue
# itself is tested against a real server (tests/test_prefect_server.py turns it on).
os.environ["GROUNDWORK_QUEUE"] = "off"


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """A throwaway Prefect backend for the whole session (no state left in ~/.prefect)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=60):
        yield


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the sample corpus, for tests that edit or break files."""
    target = tmp_path / "corpus"
    shutil.copytree(SAMPLE_CORPUS, target)
    return target


@pytest.fixture(scope="session")
def answered_warehouse(tmp_path_factory: pytest.TempPathFactory, prefect_harness):
    """One published run of the flow on data/corpus and data/questions.yaml, shared by every test
    that only reads a real warehouse: (warehouse folder, run summary). Do not write to it."""
    from flows.corpus import corpus_run
    from schemas.config import RunConfig

    warehouse = tmp_path_factory.mktemp("answered")
    summary = corpus_run(
        corpus=str(SAMPLE_CORPUS),
        warehouse=str(warehouse),
        questions=str(SAMPLE_QUESTIONS),
        config=RunConfig(workers=1),
    )
    wait_for_data_docs(warehouse, summary.run_id)  # then nothing writes to it any more
    return warehouse, summary


def wait_for_data_docs(warehouse: Path, run_id: str, timeout: float = 300) -> None:
    """Until the run's background Data Docs job has recorded its row (groundwork/quality/data_docs.py)."""
    import duckdb

    from groundwork.warehouse.store import Warehouse

    deadline = time.monotonic() + timeout
    sql = (
        "SELECT count(*) FROM check_results WHERE run_id = ? AND check_name = 'great_expectations'"
    )
    while time.monotonic() < deadline:
        with Warehouse(warehouse).run_lock("test", wait=True):  # not while the job writes
            con = duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True)
            (found,) = con.execute(sql, [run_id]).fetchone()
            con.close()
        if found:
            return
        time.sleep(1)
    raise AssertionError(f"no Data Docs for {run_id} after {timeout} s")


def duplicated_run(wh: Warehouse, good: str, run_id: str) -> None:
    """Copy a run's tables as run `run_id` (for tampering): its lineage then names the copy
    where it named `good`, so the copy reads its own parts."""
    for table in PARQUET_TABLES:
        shutil.copytree(wh.run_dir(table, good), wh.run_dir(table, run_id))
        lineage = lineage_path(wh, table, run_id)
        if lineage.exists():
            rows = pq.read_table(lineage)
            origin = pc.if_else(pc.equal(rows["from_run"], good), run_id, rows["from_run"])
            pq.write_table(rows.set_column(1, "from_run", origin), lineage)
