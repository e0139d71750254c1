"""Map a pure stage function over batches in worker processes, streaming, in input order.

Stages are CPU-bound Python, so threads would not help; processes do. At most two batches per
worker are in flight, so memory stays flat however large the corpus is. With one worker the
function runs inline, which keeps tracebacks simple in tests.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

import pyarrow.parquet as pq

from groundwork.runtime.shards import distributed_runner, results_in_order, shard_results

In = TypeVar("In")
Out = TypeVar("Out")
INLINE_BYTES = 16_000_000


def worker_count(requested: int, batches: int, size: int) -> int:
    """Workers to use: the requested number (0 = one per core), never more than the batches.

    Starting the worker pool costs seconds on two cores (the fork server and each worker import
    pyarrow, pandera and the stage module), about what one core needs for INLINE_BYTES of text,
    so smaller work (`size` bytes: a small corpus, or the changed 1 % of a large one) runs inline.
    """
    if size < INLINE_BYTES:
        return 1
    return max(1, min(requested or len(os.sched_getaffinity(0)), batches))


def mapped(fn: Callable[[In], Out], items: Iterable[In], workers: int) -> Iterator[Out]:
    """fn(item) for each item, in order, computed by `workers` processes, or as task runs on the
    flow's distributed task runner when it has one (`--task-runner dask`)."""
    if distributed_runner() is not None:
        yield from shard_results(fn, items)
        return
    if workers <= 1:
        yield from map(fn, items)
        return
    context = multiprocessing.get_context("forkserver")
    # The fork server imports the stage's module (and so pyarrow, prefect, ...) once; every worker
    # forked from it starts warm. Only the first call in a process takes effect, which suffices:
    # all stage modules share those heavy imports. The compiled rules engine is switched on first.
    context.set_forkserver_preload(["groundwork.runtime.preload", fn.__module__])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from results_in_order(lambda item: pool.submit(fn, item), items, 2 * workers)


def uncompressed_bytes(parts: list[Path]) -> int:
    """The data size of Parquet parts, from their footers (nothing else is read)."""
    total = 0
    for path in parts:
        meta = pq.ParquetFile(path).metadata
        total += sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return total
