"""A checksum per output table of one run, so that a change meant to make the pipeline faster can
show it left every output as it was (tests/test_output_checksums.py).

Each table's rows are written as text with the run's ID and the warehouse's path replaced by
placeholders, sorted, and hashed; columns that name runs or say when something happened differ
from run to run by design and are left out. Run as a script to write the expected file:

    .venv/bin/python -m tests.output_checksums tests/fixtures/output_checksums.json
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

import duckdb

# Columns that say which run or when, not what: they differ between two runs of the same inputs.
VARYING_COLUMNS = {
    "run_id",
    "flow_run_id",
    "first_run",
    "last_run",
    "changed_run",
    "retired_run",
    "reused_run",
    "started_at",
    "finished_at",
    "created_at",
    "published_at",
    "collected_at",
    "mtime_ns",
    # which code ran: a stage's version changes with its code (groundwork/stages.py), outputs not
    "code_version",
    "input_fingerprint",
    "corpus",  # the corpus folder's path: the checkout's
    # when a warehouse reached its format, and which groundwork version took it there
    "recorded_at",
    "groundwork_version",
}
# A soft check's sample is the first five offending rows of a query without an order (sql/checks/).
UNORDERED_COLUMNS = {"check_results": {"sample"}}
# The runs' own bookkeeping (timings, fingerprints of the code), and the background Data Docs job.
SKIPPED_TABLES = {"runs", "publications", "dashboard_run_failures", "dashboard_run_quality"}


def table_checksums(database: Path, run_id: str, root: Path) -> dict[str, str]:
    """sha256 of each table's and view's sorted rows in one DuckDB file, by name."""
    con = duckdb.connect(str(database), read_only=True, config={"file_search_path": str(root)})
    try:
        names = con.execute(
            "SELECT table_name FROM information_schema.tables ORDER BY table_name"
        ).fetchall()
        sums = {}
        for (name,) in names:
            if name in SKIPPED_TABLES:
                continue
            columns = [
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                    "ORDER BY ordinal_position",
                    [name],
                ).fetchall()
                if c not in VARYING_COLUMNS and c not in UNORDERED_COLUMNS.get(name, ())
            ]
            listed = ", ".join(f'"{c}"' for c in columns)
            rows = con.execute(f'SELECT {listed} FROM "{name}"').fetchall()
            lines = sorted(
                repr(tuple(map(_canonical, row)))
                .replace(run_id, "<run>")
                .replace(str(root), "<warehouse>")
                for row in rows
            )
            digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
            sums[name] = f"{len(lines)}:{digest[:16]}"
        return sums
    finally:
        con.close()


def _canonical(value: object) -> object:
    """A MAP as its sorted items: DuckDB builds maps (the audit trail's rejection reasons) from
    lists aggregated without an order, and a map has none."""
    return sorted(value.items()) if isinstance(value, dict) else value


def run_checksums(warehouse: Path) -> dict[str, dict[str, str]]:
    """The checksums of a one-run warehouse: its database, and the published snapshot."""
    con = duckdb.connect(str(warehouse / "groundwork.duckdb"), read_only=True)
    (run_id,) = con.execute("SELECT run_id FROM runs").fetchone()
    con.close()
    root = warehouse.resolve()
    return {
        "groundwork.duckdb": table_checksums(warehouse / "groundwork.duckdb", run_id, root),
        "published.duckdb": table_checksums(warehouse / "published.duckdb", run_id, root),
    }


# The run the checksums pin: the exact path. The dense encoder's int8 kernels differ between CPU
# instruction sets (AVX2 here, AVX-512 VNNI elsewhere) in the last bits of a vector, which can
# swap two near-equal candidates or move a score across the gate's threshold; BM25 and the rules
# compute the same bits everywhere.
CHECKSUMMED = {"workers": 1, "data_docs": False, "retrieve": "bm25", "verify": "rules"}


def sample_run_checksums(warehouse: Path) -> dict[str, dict[str, str]]:
    """One run of the flow on the sample corpus and questions into `warehouse`, checksummed."""
    from flows.corpus import corpus_run
    from schemas.config import RunConfig

    from .conftest import SAMPLE_CORPUS, SAMPLE_QUESTIONS

    summary = corpus_run(
        corpus=str(SAMPLE_CORPUS),
        warehouse=str(warehouse),
        questions=str(SAMPLE_QUESTIONS),
        config=RunConfig(**CHECKSUMMED),
    )
    assert summary.status == "published", summary
    return run_checksums(warehouse)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        sums = sample_run_checksums(Path(scratch) / "warehouse")
    Path(sys.argv[1]).write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n")
