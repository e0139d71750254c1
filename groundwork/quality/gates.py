"""The review gates: every SQL check in sql/checks/, run against a run, and the publish decision.

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

from groundwork.warehouse.sqlfiles import SQL_DIR
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
    # Arrow, not Python rows: a soft check may find tens of thousands of offending rows and
    # keeps five of them
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


# the tables a recomposition rewrites: a failed gate on them may be mended without a new run
RECOMPOSABLE_TABLES = ("answers", "statements", "citations")


def failed_hard_checks(results: list[dict]) -> list[dict]:
    """The hard checks that did not pass."""
    return [r for r in results if r["severity"] == "hard" and not r["passed"]]


def failed_answer_checks(results: list[dict]) -> list[dict]:
    """Failed hard checks on the composed answers: the ones a recomposition may mend."""
    return [r for r in failed_hard_checks(results) if r["table_name"] in RECOMPOSABLE_TABLES]
