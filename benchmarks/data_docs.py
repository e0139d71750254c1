"""What the Great Expectations step (groundwork/quality/data_docs.py) costs a run, on a published
warehouse (the sample corpus by default: `make run` builds ./warehouse).

Measured in one process that has already loaded what a flow run has (Prefect, pandas, pandera,
pyarrow, DuckDB): the import of Great Expectations and the suites, then `recorded_data_docs`
(load the quality frames, validate every suite, write the Data Docs, record the check row)
`--rounds` times against the published run.

    .venv/bin/python benchmarks/data_docs.py [--warehouse warehouse] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import duckdb  # noqa: F401  (loaded by every flow run before publish)
import pandas  # noqa: F401
import pandera.pandas  # noqa: F401
import prefect  # noqa: F401
import pyarrow  # noqa: F401
from machine import cpu_model

from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse


def timings(warehouse: Warehouse, rounds: int) -> dict:
    """Seconds to import Great Expectations, and each round of validation and Data Docs."""
    started = time.perf_counter()
    from groundwork.quality.data_docs import recorded_data_docs

    imported = time.perf_counter() - started
    with warehouse.connect(read_only=True) as con:
        run_id = query(con, "runs/published").fetchone()[0]
    seconds, row = [], {}
    for _ in range(rounds):
        started = time.perf_counter()
        row = recorded_data_docs(warehouse, run_id)
        seconds.append(round(time.perf_counter() - started, 3))
    return {
        "cpu": cpu_model(),
        "run_id": run_id,
        "import_s": round(imported, 3),
        "validate_and_docs_s": seconds,
        "metric": row["metric"],
        "passed": row["passed"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, default=Path("warehouse"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(timings(Warehouse(args.warehouse), args.rounds), indent=1))


if __name__ == "__main__":
    main()
