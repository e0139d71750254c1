"""The run lock: a second run fails at once, but waits behind a run's background job."""

import threading
import time
from pathlib import Path

import pytest

from groundwork.warehouse.errors import WarehouseBusy
from groundwork.warehouse.locking import BACKGROUND
from groundwork.warehouse.store import Warehouse
from tests.support.cli import failed_run_line
from tests.support.warehouses import held_lock


def test_a_run_fails_at_once_while_another_run_holds_the_warehouse(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path)
    thread = held_lock(warehouse, "flow run A", 1.0)
    started = time.monotonic()
    with pytest.raises(WarehouseBusy, match="flow run A"), warehouse.run_lock("flow run B"):
        pass
    assert time.monotonic() - started < 0.5
    thread.join()


def test_a_run_waits_for_a_background_job_to_let_go(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path)
    thread = held_lock(warehouse, f"{BACKGROUND}: data docs of r1", 1.0)
    started = time.monotonic()
    with warehouse.run_lock("flow run B"):
        waited = time.monotonic() - started
    assert waited >= 0.5
    thread.join()


def test_a_run_while_another_process_reads_the_database_fails_with_one_line(sample_copy) -> None:
    """A dashboard's read-only connection (a real second process) holds groundwork.duckdb: the
    run stops with one line naming the file and the holder, exit 1, and no traceback."""
    import subprocess
    import sys

    from tests.support.paths import SAMPLE_CORPUS

    warehouse = sample_copy
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time\n"
            f"con = duckdb.connect({str(warehouse / 'groundwork.duckdb')!r}, read_only=True)\n"
            "print('ready', flush=True)\n"
            "time.sleep(120)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert reader.stdout.readline().strip() == "ready"
        line = failed_run_line(warehouse)
    finally:
        reader.kill()
        reader.wait()
    assert "held open by another process" in line
    assert f"(PID {reader.pid})" in line
    # the attempt could not write its row; the next run that can records it
    noted = (warehouse / "unrecorded_runs.jsonl").read_text()
    assert "held open by another process" in noted
    from flows.corpus import corpus_run
    from schemas.config import RunConfig

    corpus_run(
        corpus=str(SAMPLE_CORPUS), warehouse=str(warehouse), config=RunConfig(data_docs=False)
    )
    with Warehouse(warehouse).connect(read_only=True) as con:
        failed = con.execute("SELECT error FROM runs WHERE status = 'failed'").fetchall()
    assert [e for (e,) in failed] == [line.removeprefix("error: ")]
    assert (warehouse / "unrecorded_runs.jsonl").read_text() == ""


def _reader(database: Path, seconds: float):
    """A real second process holding `database` open read-only for `seconds` (a dashboard's
    connection, a `groundwork sql`), once it has printed `ready`."""
    import subprocess
    import sys

    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, time\n"
            f"con = duckdb.connect({str(database)!r}, read_only=True)\n"
            "print('ready', flush=True)\n"
            f"time.sleep({seconds})\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout.readline().strip() == "ready"
    return reader


def test_the_data_docs_job_waits_for_a_reader_to_let_go_of_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The job writes its row once a reader (which takes no run lock) closes the database, and
    lets go of the run lock between its tries, so a run does not queue behind it meanwhile."""
    import groundwork.quality.data_docs as data_docs

    monkeypatch.setattr(data_docs, "READER_POLL_S", 0.1)
    warehouse = Warehouse(tmp_path)
    with warehouse.connect():
        pass  # the database, with its schema
    reader = _reader(warehouse.db_path, 3.0)
    written: list[float] = []
    started = time.monotonic()

    def guard():
        return warehouse.run_lock(f"{BACKGROUND}: data docs of r1", wait=True)

    def job() -> None:
        with data_docs.free_connection(warehouse, guard) as con:
            con.execute("SELECT count(*) FROM runs").fetchall()
            written.append(time.monotonic() - started)

    thread = threading.Thread(target=job)
    thread.start()
    try:
        time.sleep(0.5)
        asked = time.monotonic()
        with warehouse.run_lock("flow run B"):
            assert time.monotonic() - asked < 1.0  # not behind the waiting job
        thread.join(timeout=60)
    finally:
        reader.kill()
        reader.wait()
    assert written and written[0] >= 2.0  # it waited for the reader, then wrote


def test_the_data_docs_job_gives_up_on_a_reader_after_its_patience(tmp_path: Path) -> None:
    from contextlib import nullcontext

    from groundwork.quality.data_docs import free_connection

    warehouse = Warehouse(tmp_path)
    with warehouse.connect():
        pass
    reader = _reader(warehouse.db_path, 120)
    try:
        with (
            pytest.raises(WarehouseBusy, match=rf"\(PID {reader.pid}\)"),
            free_connection(warehouse, nullcontext, patience_s=0.0),
        ):
            pass
    finally:
        reader.kill()
        reader.wait()


HOLDER = """
import sys, time
from pathlib import Path
from groundwork.warehouse.store import Warehouse
warehouse = Warehouse(Path(sys.argv[1]))
with warehouse.run_lock(sys.argv[2]), warehouse.connect():  # a writer, as the job writes its row
    print("holding", flush=True)
    time.sleep(float(sys.argv[3]))
print("let go", flush=True)
time.sleep(60)
"""


def _writer_process(warehouse: Path, holder: str, seconds: float):
    """A second process that holds the warehouse's run lock and its database open for writing."""
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(warehouse), holder, str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "holding"
    return process


def test_a_reader_waits_while_a_background_job_writes_its_row(tmp_path: Path) -> None:
    """`groundwork sql` just after a run met the Data Docs job writing its row and failed, naming
    a process the user never started; now it waits the moment out."""
    warehouse = Warehouse(tmp_path)
    with warehouse.connect():  # the schema
        pass
    job = _writer_process(tmp_path, f"{BACKGROUND}: data docs of r1", 1.5)
    try:
        started = time.monotonic()
        with warehouse.connect(read_only=True) as con:
            waited = time.monotonic() - started
            assert con.execute("SELECT count(*) FROM runs").fetchone() == (0,)
        assert job.stdout.readline().strip() == "let go"
        assert waited >= 0.5
    finally:
        job.kill()
        job.wait()


def test_a_reader_fails_at_once_while_a_run_holds_the_database(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path)
    with warehouse.connect():
        pass
    run = _writer_process(tmp_path, "groundwork run r2", 30)
    try:
        started = time.monotonic()
        busy = rf"held open by another process .*PID {run.pid}"
        with pytest.raises(WarehouseBusy, match=busy), warehouse.connect(read_only=True):
            pass
        assert time.monotonic() - started < 5
    finally:
        run.kill()
        run.wait()
