"""The rows a report is made of, read from one run's Parquet tables and the warehouse."""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb

from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import literal_sql, query
from groundwork.warehouse.store import Warehouse


@dataclass(frozen=True)
class ReportTables:
    """Everything the report shows, as plain rows: the report reads nothing else.

    `also_verified` are the verdicts on requirements verified for a question but not quoted in
    its answer; `checks` the review stage's results; `previous_run` the published run before
    this one (what the diff compares against), if any; `closest_rejected` the nearest
    candidates the gate turned down per question, and `best_scores` each question's best
    gate-model score (None where the rules decided), which a model's score is said beside."""

    run: dict
    answers: list[dict]
    statements: list[dict]
    citations: list[dict]
    evidence: list[dict]
    also_verified: list[dict] = field(default_factory=list)
    checks: list[dict] = field(default_factory=list)
    previous_run: str | None = None
    closest_rejected: list[dict] = field(default_factory=list)
    best_scores: dict[str, float | None] = field(default_factory=dict)


def _records(cursor: duckdb.DuckDBPyConnection) -> list[dict]:
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def published_run(con: duckdb.DuckDBPyConnection) -> str | None:
    """The run whose answers are published, or None before the first publication."""
    row = query(con, "runs/published").fetchone()
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
        "questions",
        "statements",
        "citations",
        "verifications",
        "requirements",
        "chunks",
    )
    run = _records(query(con, "report/run", {"run_id": run_id}))
    run = run[0] if run else {"run_id": run_id}
    if run.get("documents") is None:  # a run being published records its counts after this
        documents, _, run["corpus_hash"], _ = query(
            con, "ingest/corpus_stats", {"run_id": run_id}
        ).fetchone()
        run["documents"] = documents
    previous = query(con, "report/previous_published", {"run_id": run_id}).fetchone()

    def rows(name: str) -> list[dict]:
        return _records(con.execute(literal_sql(f"report/{name}", **parts)))

    answers = rows("answers")
    return ReportTables(
        run=run,
        answers=answers,
        statements=rows("statements"),
        citations=rows("citations"),
        # nothing answered, no evidence: spares a scan of every requirement and chunk of the run
        evidence=rows("evidence") if any(a["result"] == "ANSWERED" for a in answers) else [],
        also_verified=rows("also_verified"),
        checks=_records(query(con, "report/checks", {"run_id": run_id})),
        previous_run=previous[0] if previous else None,
        closest_rejected=rows("closest_rejected"),
        best_scores=dict(con.execute(literal_sql("report/best_scores", **parts)).fetchall()),
    )
