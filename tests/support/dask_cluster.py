"""A Dask cluster as a user starts one: `dask scheduler` and `dask worker` as processes of their
own, from this environment's `dask` command, not an in-process LocalCluster. The workers take
`--preload groundwork.runtime.preload` (the compiled rules engine) and no Prefect settings of
their own: each shard brings the flow's (its Prefect server among them). They are stopped however
the test ends."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.support.servers import free_port

DASK = Path(sys.executable).with_name("dask")  # the console script beside this interpreter


@dataclass(frozen=True)
class Cluster:
    """Where the scheduler listens, and the pids of the `dask worker` processes: each is a nanny
    that runs its worker as a child process."""

    address: str
    nannies: tuple[int, ...]


@contextmanager
def dask_cluster(workers: int, logs: Path) -> Iterator[Cluster]:
    """A scheduler on 127.0.0.1 and `workers` worker processes of one thread each, no dashboard,
    their output in `logs`; yields once every worker has joined the scheduler."""
    from distributed import Client
    from distributed.client import WorkerStartTimeoutError

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        scheduler = stack.enter_context(
            _process(
                ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                logs / "scheduler.log",
            )
        )
        _wait_until_listening(port, scheduler, logs / "scheduler.log")
        worker = [address, "--nthreads", "1", "--preload", "groundwork.runtime.preload"]
        nannies = [
            stack.enter_context(
                _process(["worker", *worker, "--no-dashboard"], logs / f"worker-{n}.log")
            )
            for n in range(workers)
        ]
        with Client(address, timeout=60) as client:
            try:
                client.wait_for_workers(workers, timeout=120)
            except WorkerStartTimeoutError:
                tails = [(logs / f"worker-{n}.log").read_text()[-2000:] for n in range(workers)]
                pytest.fail("dask workers did not join:\n" + "\n".join(tails))
        yield Cluster(address, tuple(n.pid for n in nannies))


@contextmanager
def _process(args: list[str], log: Path) -> Iterator[subprocess.Popen]:
    """`dask ARGS` in a process group of its own, with this process's environment less its
    Prefect settings, output to `log`; stopped on the way out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(DASK), *args],
            env=env,
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield process
        finally:
            _stop_group(process)


def _stop_group(process: subprocess.Popen, timeout: float = 30) -> None:
    """SIGTERM to the process and its children (a nanny's worker), SIGKILL to whatever of them is
    left after `timeout` seconds: nothing outlives the test."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:  # the whole group has exited already
        return
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=timeout)
    with suppress(ProcessLookupError):  # none left: the usual end
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _wait_until_listening(port: int, process: subprocess.Popen, log: Path) -> None:
    """Until the scheduler accepts connections on `port`; fails the test, quoting its log, when
    it exits first or a minute passes."""
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"dask scheduler did not start: {log.read_text()[-3000:]}")
            time.sleep(0.3)
