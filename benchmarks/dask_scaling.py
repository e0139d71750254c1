"""Scaling curve on Dask: one cold `groundwork run --task-runner dask` per cluster size.

For each size N in --workers, starts a Dask cluster as a user does: `dask scheduler` and N
`dask worker` processes of one thread each (tests/support/dask_cluster.py, the cluster the e2e
test runs on), runs the CLI on the corpus into a fresh warehouse with `--dask-address` pointing at
it (the CLI's Prefect server, started here, records the workers' shards too), and records the
wall time, documents/s, the stage timings (from `runs`), the peak memory of the CLI process (the
flow: DuckDB, register, review, publish) and of each worker process, and the shard sizes. On a
2-core machine, 4 workers oversubscribe the cores: the curve says what the scheduler costs, not
what 4 machines would give.

    .venv/bin/python benchmarks/dask_scaling.py --files 20000 --workers 1,2,4
    .venv/bin/python benchmarks/dask_scaling.py --corpus DIR --workers 2

`--files N` takes the first N files of the unpacked bench corpus (benchmarks/scale.py unpacks it)
as hard links into a folder of its own: the pipeline never follows symbolic links. Prints JSON
and writes bench-out/dask_scaling.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = Path("/tmp/groundwork-bench")
sys.path.insert(0, str(REPO))

from groundwork.ingest.documents import BYTES_PER_BATCH, FILES_PER_BATCH  # noqa: E402
from groundwork.runtime.shards import shared_prefect_server  # noqa: E402
from schemas.config import RunConfig  # noqa: E402


def linked_subset(corpus: Path, files: int) -> Path:
    """The first `files` visible files of the corpus (sorted paths), hard-linked into a folder."""
    target = CACHE / f"bench-corpus-linked-{files}"
    if (target / ".linked").exists():
        return target
    listed = sorted(
        p.relative_to(corpus).as_posix()
        for p in corpus.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(corpus).parts)
    )[:files]
    for rel in listed:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        os.link(corpus / rel, target / rel)
    (target / ".linked").write_text("")
    return target


def worker_peak_mib() -> float:
    """This process's peak resident memory (run on each Dask worker), in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measured_run(corpus: Path, warehouse: Path, address: str) -> dict:
    """One CLI run against the scheduler: wall time, exit code, peak RSS of the CLI process."""
    cmd = [str(REPO / ".venv/bin/groundwork"), "run", "-c", str(corpus), "-w", str(warehouse)]
    cmd += ["--task-runner", "dask", "--dask-address", address]
    started = time.perf_counter()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    stderr = process.stderr.read() if process.stderr else ""
    return {
        "wall_s": round(wall, 2),
        "exit_code": os.waitstatus_to_exitcode(status),
        "cli_peak_rss_mib": round(usage.ru_maxrss / 1024),
        "stderr_tail": stderr[-400:],
    }


def run_row(warehouse: Path) -> dict:
    """The run's counts and stage timings, from its row in `runs`."""
    import duckdb

    con = duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True)
    counts, timings = con.execute("SELECT counts, timings FROM runs").fetchone()
    con.close()
    return {"counts": json.loads(counts), "timings_s": json.loads(timings)}


def curve_point(corpus: Path, workers: int) -> dict:
    """A fresh cluster of `workers` processes, one cold run on it, and what it measured."""
    from distributed import Client

    from tests.support.dask_cluster import dask_cluster

    warehouse = CACHE / f"warehouse-dask-{workers}"
    subprocess.run(["rm", "-rf", str(warehouse)], check=True)
    load = os.getloadavg()[0]
    with (
        dask_cluster(workers, CACHE / f"dask-logs-{workers}") as cluster,
        Client(cluster.address) as client,
    ):
        run = measured_run(corpus, warehouse, cluster.address)
        peaks = client.run(worker_peak_mib)
    row = run_row(warehouse)
    documents = row["counts"].get("documents", 0)
    return {
        "workers": workers,
        **run,
        "documents_per_s": round(documents / run["wall_s"], 1),
        "worker_peak_rss_mib": sorted(round(v) for v in peaks.values()),
        "load_1min_before": load,
        "load_1min_after": os.getloadavg()[0],
        **row,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CACHE / "bench-corpus")
    parser.add_argument("--files", type=int, default=None, help="the first N files only")
    parser.add_argument("--workers", default="1,2,4", help="cluster sizes, comma-separated")
    parser.add_argument("--out", type=Path, default=REPO / "bench-out/dask_scaling.json")
    args = parser.parse_args()
    corpus = linked_subset(args.corpus, args.files) if args.files else args.corpus
    config = RunConfig()
    api = shared_prefect_server()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    ).stdout.strip()
    summary = {
        "benchmark": "dask_scaling",
        "commit": commit,
        "corpus": str(corpus),
        "cores": len(os.sched_getaffinity(0)),
        "prefect_api": api,
        "shards": {
            "ingest": f"up to {FILES_PER_BATCH} files or {BYTES_PER_BATCH / 1e6:.0f} MB",
            "chunk": f"{config.batch_docs} documents",
            "extract": f"one chunk part's row group ({config.batch_docs} documents' chunks)",
        },
        "points": [curve_point(corpus, int(n)) for n in args.workers.split(",")],
    }
    text = json.dumps(summary, indent=1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
