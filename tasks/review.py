"""Stage `check_results`: run every SQL check in sql/checks/ against the run under review.

Each check file returns the offending rows and declares itself in its header comments (name,
table, severity, threshold, metric). Hard checks pass only with zero offending rows; soft checks
compare the offending share with their threshold and are reported, never blocking.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.progress import stage_progress
from groundwork.sqlfiles import SQL_DIR, run_script, sql_text
from groundwork.warehouse import Warehouse, run_parts
from schemas.config import RunConfig

_HEADER = re.compile(r"^--\s*(\w+):\s*(.+?)\s*$", re.MULTILINE)
SAMPLE_ROWS = 5


@dataclass(frozen=True)
class Check:
    """One check file: its declared header and its query."""

    name: str
    table: str
    severity: str
    metric: str
    threshold: float | str  # a number, or a setting of the run config (claims.max_...)
    denominator: str | None
    sql: str

    def threshold_for(self, config: RunConfig) -> float:
        """The threshold this run is held to: the header's number, or the named setting."""
        if isinstance(self.threshold, float):
            return self.threshold
        value: object = config
        for name in self.threshold.split("."):
            value = getattr(value, name)
        return float(value)  # type: ignore[arg-type]

    @classmethod
    def from_file(cls, path: Path) -> Check:
        sql = path.read_text(encoding="utf-8")
        header = dict(_HEADER.findall(sql))
        return cls(
            name=header["check"],
            table=header["table"],
            severity=header["severity"],
            metric=header["metric"],
            threshold=_threshold(header.get("threshold", "0")),
            denominator=header.get("denominator"),
            sql=sql,
        )


def _threshold(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text  # a config setting, resolved per run


def checks() -> list[Check]:
    """Every check in sql/checks/, in file-name order."""
    return [Check.from_file(p) for p in sorted((SQL_DIR / "checks").glob("*.sql"))]


def check_result(
    con: duckdb.DuckDBPyConnection, check: Check, run_id: str, threshold: float
) -> dict:
    """Run one check and return its `check_results` row."""
    # Arrow, not Python rows: a soft check may find 64 k offending rows and keeps five of them
    rows = con.execute(check.sql).to_arrow_table()
    offending = rows.num_rows
    if check.denominator:
        total = con.execute(check.denominator).fetchone()[0]
        value = offending / total if total else 0.0
    else:
        value = float(offending)
    sample = rows.slice(0, SAMPLE_ROWS).to_pylist()
    return {
        "run_id": run_id,
        "check_name": check.name,
        "table_name": check.table,
        "severity": check.severity,
        "metric": check.metric,
        "threshold": threshold,
        "value": value,
        "passed": value <= threshold,
        "offending_rows": offending,
        "sample": json.dumps(sample, default=str),
    }


@task(name="review", cache_policy=NO_CACHE)
def review_stage(warehouse: Warehouse, run_id: str, config: RunConfig) -> list[dict]:
    """Run all checks for the run, record them in `check_results`, and return them."""
    suite = checks()
    bar = stage_progress("review", len(suite), "checks")
    results = []
    with warehouse.connect() as con:
        tables = (
            "chunks",
            "requirements",
            "verifications",
            "answers",
            "statements",
            "citations",
            "claims",
        )
        fresh = {
            f"fresh_{t}": warehouse.own_relation(t, run_id) for t in ("chunks", "requirements")
        }
        run_script(con, "review/run_views", **run_parts(warehouse, run_id, *tables), **fresh)
        for check in suite:
            results.append(check_result(con, check, run_id, check.threshold_for(config)))
            bar.advance()
        run_script(con, "review/clear_checks", {"run_id": run_id})
        con.executemany(sql_text("review/record_check"), results)
    bar.finish()
    return results
