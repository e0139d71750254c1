"""Incremental runs on the bench corpus: cold, re-run with nothing changed, re-run with 1 % of
the documents changed. Wall time of each and the ratios to the cold run (issue 5).

The corpus is a hard-linked copy of the unpacked bench corpus (see scale.py); the 1 % change
appends one obligation sentence to every 100th file (a new file is written, so the cached corpus
is untouched). The runs go through `groundwork run` against a running `prefect server start`,
as scheduled deployments do; a final no-change run with Prefect's ephemeral server (what a plain
`groundwork run` starts) shows that start-up cost.

    .venv/bin/python benchmarks/incremental.py [--shared ../shared] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import duckdb
from machine import cpu_model
from scale import DEFAULT_CACHE, corpus_files, unpacked_corpus

from groundwork.warehouse.store import Warehouse

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / ".venv" / "bin"
AMENDMENT = (
    "\n\nAmendment. The responsible office must keep a written record of each amendment to "
    "this section for six years after the amendment takes effect.\n"
)


def working_corpus(source: Path, target: Path, limit: int | None) -> Path:
    """A hard-linked copy of the bench corpus (or of its first `limit` files)."""
    shutil.rmtree(target, ignore_errors=True)
    for rel in corpus_files(source)[:limit]:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        os.link(source / rel, target / rel)
    return target


def amended(corpus: Path, every: int) -> int:
    """Append the amendment to every `every`-th file, as a new file; returns how many."""
    files = corpus_files(corpus)[::every]
    for rel in files:
        path = corpus / rel
        text = path.read_bytes() + AMENDMENT.encode()
        path.unlink()  # break the hard link: the cached corpus stays as it is
        path.write_bytes(text)
    return len(files)


def prefect_server(env: dict) -> subprocess.Popen:
    port = env["PREFECT_API_URL"].rsplit(":", 1)[1].split("/")[0]
    server = subprocess.Popen(
        [BIN / "prefect", "server", "start", "--host", "127.0.0.1", "--port", port],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(240):
        try:
            urllib.request.urlopen(f"{env['PREFECT_API_URL']}/health", timeout=2).read()
            return server
        except OSError:
            time.sleep(0.5)
    raise SystemExit("prefect server did not start")


def timed(label: str, corpus: Path, warehouse: Path, env: dict) -> dict:
    started = time.perf_counter()
    done = subprocess.run(
        [BIN / "groundwork", "run", "-c", corpus, "-w", warehouse],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    newest = "SELECT run_id, status, timings, counts FROM runs ORDER BY started_at DESC LIMIT 1"
    last = subprocess.run(
        [BIN / "groundwork", "sql", "-w", warehouse, "-f", "json", newest],
        capture_output=True,
        text=True,
        check=True,
    )
    row = json.loads(last.stdout)[0]
    result = {"run": label, "wall_s": round(wall, 1), "exit": done.returncode, **row}
    if row["status"] in ("published", "failed"):
        result["data_docs_s"] = data_docs_seconds(warehouse, row["run_id"])
    print(json.dumps(result), flush=True)
    return result


def data_docs_seconds(warehouse: Path, run_id: str) -> float:
    """How long after the run its background Data Docs job took to record its row. The next
    run is started only then, so that it neither waits for the job nor shares the CPU with it."""
    started = time.perf_counter()
    sql = (
        "SELECT count(*) FROM check_results WHERE run_id = ? AND check_name = 'great_expectations'"
    )
    while time.perf_counter() - started < 900:
        with Warehouse(warehouse).run_lock("benchmark", wait=True):
            con = duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True)
            (found,) = con.execute(sql, [run_id]).fetchone()
            con.close()
        if found:
            return round(time.perf_counter() - started, 1)
        time.sleep(0.5)
    raise SystemExit(f"no Data Docs for {run_id} after 900 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--limit", type=int, default=None, help="first N files only")
    args = parser.parse_args()
    source = unpacked_corpus(args.shared / "bench-corpus.tar.gz", args.cache)
    corpus = working_corpus(source, args.cache / "incremental-corpus", args.limit)
    warehouse = args.cache / "incremental-warehouse"
    shutil.rmtree(warehouse, ignore_errors=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")},
        "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
        "PREFECT_HOME": str(args.cache / "prefect-home"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
    }
    server = prefect_server(env)
    try:
        runs = [timed("cold", corpus, warehouse, env), timed("no change", corpus, warehouse, env)]
        changed = amended(corpus, 100)
        runs.append(timed(f"1% changed ({changed} files)", corpus, warehouse, env))
    finally:
        server.terminate()
    ephemeral = {k: v for k, v in env.items() if k != "PREFECT_API_URL"}
    runs.append(timed("no change, ephemeral Prefect", corpus, warehouse, ephemeral))
    cold = runs[0]["wall_s"]
    print(f"\nMachine: {cpu_model()}, {os.cpu_count()} cores; files: {len(corpus_files(corpus))}")
    print("| run | wall s | of cold | status | Data Docs job after it, s |\n|---|---|---|---|---|")
    for r in runs:
        docs = r.get("data_docs_s", "-")
        print(f"| {r['run']} | {r['wall_s']} | {r['wall_s'] / cold:.1%} | {r['status']} | {docs} |")


if __name__ == "__main__":
    main()
