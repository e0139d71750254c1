"""The run lock: one run (or background job) at a time per warehouse, as an OS file lock.

The lock file names its holder, so a second run says who holds it, and a connection that finds
the database held can tell a run's short background job (waited for) from anything else."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from groundwork.warehouse.errors import WarehouseBusy

BACKGROUND = "background job"  # how a run's background jobs name themselves in the run lock


def background_job(root: Path, pid: int) -> str | None:
    """What the run lock of the warehouse at `root` says of its holder when that is a background
    job of this process ID (`run_lock` writes it there), else None."""
    try:
        held_by = (root / ".run.lock").read_text().strip()
    except OSError:  # no lock file: no run or job has used this warehouse
        return None
    ours = held_by.startswith(BACKGROUND) and held_by.endswith(f", pid {pid}")
    return held_by if ours else None


@contextmanager
def run_lock(root: Path, holder: str, wait: bool = False) -> Iterator[None]:
    """Exclusive right to run against this warehouse, or WarehouseBusy at once.

    An OS file lock (flock), so it is released when its process dies, SIGKILL included:
    a crashed run never leaves the warehouse locked. The second run fails rather than waits
    because DuckDB admits one writing process, and a queue of nightly runs behind a stuck
    one helps nobody; Prefect's concurrency limits are the place to queue deliberately.
    A run does wait behind a background job (a run's Data Docs: seconds), and background
    jobs (`wait=True`) wait behind runs.
    """
    root.mkdir(parents=True, exist_ok=True)
    path = root / ".run.lock"
    with path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            held_by = handle.read().strip()
            if not (wait or held_by.startswith(BACKGROUND)):
                raise WarehouseBusy(
                    f"warehouse {root} is in use by another run ({held_by}); "
                    "wait for it to finish or use another --warehouse"
                ) from None
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        handle.write(f"{holder}, pid {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
