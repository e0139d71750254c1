"""Shards of a stage's work as Prefect task runs, when the flow runs on a distributed runner.

With `--task-runner dask` the flow's task runner is prefect-dask's DaskTaskRunner (a
LocalCluster, or the scheduler at `--dask-address`), and ingest, chunk and extract map their
batches of files, documents and chunks through it as `shard` task runs: the same pure functions
as the local process pool runs, so the tables come out the same. Prefect's default thread-pool
runner is not used for this: the stages are CPU-bound Python, and threads share one core's worth
of the GIL, so locally the process pool in groundwork.runtime.batches does the work.
"""

from __future__ import annotations

import os
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.context import FlowRunContext
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

# Shards submitted to the cluster ahead of the one awaited: enough to keep dozens of workers busy
# (each shard is seconds of work), few enough that their inputs stay small beside the corpus.
IN_FLIGHT = 64


@task(name="shard", cache_policy=NO_CACHE)
def shard(fn: Callable[[Any], Any], item: Any) -> Any:
    """One batch of a stage's work, as its own task run on the flow's task runner."""
    return fn(item)


def distributed_runner() -> TaskRunner | None:
    """The flow's task runner when it is a distributed one (not Prefect's thread pool)."""
    runner = getattr(FlowRunContext.get(), "task_runner", None)
    return None if runner is None or isinstance(runner, ThreadPoolTaskRunner) else runner


def shard_results(fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
    """fn(item) for each item, in order, as task runs on the flow's distributed runner, at most
    IN_FLIGHT submitted ahead of the one awaited: items are taken as the cluster frees room, so
    the flow's process never holds every shard's input (a cold run's files, batched) at once."""
    return results_in_order(lambda item: shard.submit(fn, item), items, IN_FLIGHT)


def results_in_order(
    submit: Callable[[Any], Any], items: Iterable[Any], ahead: int
) -> Iterator[Any]:
    """The results of submit(item) for each item, in order, with at most `ahead` submitted
    before the one awaited (a process pool's futures or a task runner's alike)."""
    pending: deque[Any] = deque()
    for item in items:
        pending.append(submit(item))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def dask_runner(address: str | None, workers: int = 0) -> TaskRunner:
    """prefect-dask's runner: the scheduler at `address`, or a local cluster of `workers` worker
    processes (0: one per core), one thread each, no dashboard (nothing listens beyond what the
    run needs)."""
    from prefect_dask import DaskTaskRunner

    if address:
        return DaskTaskRunner(address=address)
    shared_prefect_server()
    return DaskTaskRunner(
        cluster_kwargs={
            "n_workers": workers or len(os.sched_getaffinity(0)),
            "threads_per_worker": 1,
            "processes": True,
            "dashboard_address": None,
            "preload": ["groundwork.runtime.preload"],  # the compiled rules engine, as here
        }
    )


def unreachable_scheduler(address: str, timeout: float = 10) -> str | None:
    """Why the Dask scheduler at `address` cannot be used (not HOST:PORT, or nothing answers
    there), or None. Said in one line before the run starts: the run would otherwise fail at its
    first shard, after Dask's half minute of retries, in a traceback. Addresses of schemes that
    are not sockets (ucx://, inproc://) are left to Dask."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in _SOCKET_SCHEMES:
        return None
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number
        host = port = None
    if not host or port is None:
        return f"--dask-address {address}: expected tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        return f"no Dask scheduler answers at {address} ({exc.strerror or exc})"
    return None


_SOCKET_SCHEMES = frozenset({"tcp", "tls", "ws", "wss"})


def server_warning(address: str | None) -> str | None:
    """What a run on the Dask scheduler at `address` is told when it names no Prefect server
    (PREFECT_API_URL unset): its shards then report to a temporary server each worker starts for
    itself, which costs seconds a worker and loses their task runs with it. None otherwise."""
    from prefect.settings import PREFECT_API_URL

    if not address or PREFECT_API_URL.value():
        return None
    return (
        f"--dask-address {address} without PREFECT_API_URL: each worker starts a Prefect server "
        "of its own and the shards' task runs are lost with it; set PREFECT_API_URL to a server "
        "the workers reach (docs/operations.md, 'Run on a cluster')"
    )


def shared_prefect_server() -> str:
    """This process's Prefect API URL, starting its ephemeral server now when none is set
    (PREFECT_API_URL unset), named in the environment that child processes inherit: a local
    cluster's worker processes (otherwise each starts an ephemeral server of its own on its first
    shard, one a worker, each taking seconds and hundreds of MB), or a CLI a benchmark starts."""
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import PREFECT_API_URL

    if PREFECT_API_URL.value():
        return PREFECT_API_URL.value()
    server = SubprocessASGIServer()  # the one Prefect's own client starts in this process
    server.start()
    os.environ["PREFECT_API_URL"] = server.api_url
    return server.api_url
