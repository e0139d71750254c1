"""The run lock: a second run fails at once, but waits behind a run's background job."""

import threading
import time
from pathlib import Path

import pytest

from groundwork.warehouse import BACKGROUND, Warehouse, WarehouseBusy


def _held(warehouse: Warehouse, holder: str, seconds: float) -> threading.Thread:
    taken = threading.Event()

    def hold() -> None:
        with warehouse.run_lock(holder):
            taken.set()
            time.sleep(seconds)

    thread = threading.Thread(target=hold)
    thread.start()
    taken.wait()
    return thread


def test_a_run_fails_at_once_while_another_run_holds_the_warehouse(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path)
    thread = _held(warehouse, "flow run A", 1.0)
    started = time.monotonic()
    with pytest.raises(WarehouseBusy, match="flow run A"), warehouse.run_lock("flow run B"):
        pass
    assert time.monotonic() - started < 0.5
    thread.join()


def test_a_run_waits_for_a_background_job_to_let_go(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path)
    thread = _held(warehouse, f"{BACKGROUND}: data docs of r1", 1.0)
    started = time.monotonic()
    with warehouse.run_lock("flow run B"):
        waited = time.monotonic() - started
    assert waited >= 0.5
    thread.join()
