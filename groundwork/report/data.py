"""The rows a report is made of, read from one run's Parquet tables and the warehouse."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from groundwork.sqlfiles import literal_sql, query
from groundwork.warehouse import Warehouse, run_parts


@dataclass(frozen=True)
class ReportTables:
    """Everything the report shows, as plain rows: the report reads nothing else."""

    run: dict
    answers: list[dict]
    statements: list[dict]
    citations: list[dict]
    evidence: list[dict]


def _records(cursor: duckdb.DuckDBPyConnection) -> list[dict]:
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def published_run(con: duckdb.DuckDBPyConnection) -> str | None:
    """The run whose answers are published, or None before the first publication."""
    row = query(con, "report/published_run").fetchone()
    return row[0] if row else None


def has_answers(warehouse: Warehouse, run_id: str) -> bool:
    """Whether a run wrote answers (a run that stopped before compose has none to report)."""
    return all(warehouse.parts(t, run_id) for t in ("answers", "statements", "citations"))


def report_tables(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str
) -> ReportTables:
    """The report's rows for one run (answers, statements, citations and cited evidence)."""
    parts = run_parts(
        warehouse,
        run_id,
        "answers",
        "statements",
        "citations",
        "verifications",
        "requirements",
        "chunks",
    )
    run = _records(query(con, "report/run", {"run_id": run_id}))

    def rows(name: str) -> list[dict]:
        return _records(con.execute(literal_sql(f"report/{name}", **parts)))

    citations = rows("citations")
    return ReportTables(
        run=run[0] if run else {"run_id": run_id},
        answers=rows("answers"),
        statements=rows("statements"),
        citations=citations,
        # nothing cited, no evidence: spares a scan of every requirement and chunk of the run
        evidence=rows("evidence") if citations else [],
    )
