"""The least the shard stages can cost on this machine (issue 24): parse, chunk and extract in one
pass per file batch, in worker processes, with nothing between them.

This is the "one pass per shard" design the earlier passes pointed to, measured before it is
built: each worker parses a batch of files, chunks its documents and runs the rules on the chunks,
with every contract the stages check, and writes the chunks and candidates as Parquet. No DuckDB,
no stage boundaries, no lineage, no Prefect. A cold `groundwork run` spends its ingest, chunk and
extract worker phases on the same work, so their wall time over this one is the most that fusing
the three stages could save, and this one's CPU is what any design with these rules pays.

    .venv/bin/python benchmarks/shard_bound.py                  # the unpacked bench corpus
    .venv/bin/python benchmarks/shard_bound.py --corpus DIR --workers 2

Prints one JSON object: the wall time of the planning (listing, digests, metadata) and of the
pass, the CPU seconds of each step summed over the workers, the rows made, the load average.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq

from groundwork.runtime.compiled import activate

# ruff: noqa: E402
# The compiled rules engine where a run would use it (groundwork/runtime/compiled.py): switched on
# before its modules are imported, here and in each worker, which imports this module again.
COMPILED = activate()

from groundwork.extract.rules import candidates
from groundwork.ingest.documents import ParseItem, file_batches, parsed_documents
from groundwork.ingest.listing import corpus_listing
from groundwork.ingest.metadata import FileMetadata, corpus_metadata
from groundwork.text.chunks import checked_chunks
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.contract import checked
from schemas.requirements import Candidates

DEFAULT_CORPUS = Path("/tmp/groundwork-bench/bench-corpus")  # where benchmarks/scale.py unpacks
STEPS = ("parse", "chunk", "extract", "candidates_contract", "write")


def shard_pass(unit: tuple[int, list[ParseItem], RunConfig, Path]) -> dict[str, float]:
    """Rows made and CPU seconds per step for one file batch, parsed, chunked and extracted."""
    index, files, config, out = unit
    spent: dict[str, float] = dict.fromkeys(STEPS, 0.0)
    clock = time.process_time()

    def lap(step: str) -> None:
        nonlocal clock
        now = time.process_time()
        spent[step] += now - clock
        clock = now

    documents, _ = parsed_documents((files, config))
    lap("parse")
    if not documents.num_rows:
        return {**spent, "documents": 0, "chunks": 0, "candidates": 0}
    chunks = checked_chunks((documents.combine_chunks().to_batches()[0], config.chunk_max_chars))
    lap("chunk")
    found = candidates(chunks)
    lap("extract")
    found = checked(found, Candidates, "candidates")
    lap("candidates_contract")
    pq.write_table(chunks, out / f"chunks-{index:05d}.parquet")
    pq.write_table(found, out / f"candidates-{index:05d}.parquet")
    lap("write")
    rows = {"documents": documents.num_rows, "chunks": chunks.num_rows}
    return {**spent, **rows, "candidates": found.num_rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"error: no corpus at {args.corpus} (benchmarks/scale.py unpacks it there)")
    load = os.getloadavg()[0]
    config = RunConfig()
    with tempfile.TemporaryDirectory(prefix="shard-bound-") as scratch:
        out = Path(scratch)
        started = time.perf_counter()
        # a warehouse with no recorded files: every file is hashed and parsed, as in a cold run
        listing = corpus_listing(args.corpus, Warehouse(out / "warehouse"))
        metadata = corpus_metadata(listing, config)
        to_parse = [
            (Path(path), rel, digest, meta)
            for batch in listing.batches()
            for path, rel, digest in batch
            if isinstance(meta := metadata.of(rel), FileMetadata)
        ]
        units = [(i, batch, config, out) for i, batch in enumerate(file_batches(to_parse))]
        planned = time.perf_counter()
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        totals: dict[str, float] = {}
        with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
            for result in pool.map(shard_pass, units):
                for key, value in result.items():
                    totals[key] = totals.get(key, 0) + value
        finished = time.perf_counter()
    cpu = {step: round(totals.get(step, 0.0), 2) for step in STEPS}
    report = {
        "corpus": str(args.corpus),
        "workers": args.workers,
        "compiled": COMPILED,
        "batches": len(units),
        "plan_s": round(planned - started, 2),
        "pass_s": round(finished - planned, 2),
        "cpu_s": {**cpu, "total": round(sum(cpu.values()), 2)},
        "rows": {k: int(totals.get(k, 0)) for k in ("documents", "chunks", "candidates")},
        "load_1min_before": round(load, 2),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
