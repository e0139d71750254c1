"""The provenance of one run, read from the warehouse as `schemas.export.Provenance`.

Everything a reader needs to check a run's answers without the warehouse: the documents' text,
their sources, the requirements with their offsets, the questions, answers, statements,
citations, the verifier's verdicts, the atomic claims with their numbers and citation
corrections, and the review checks. The run's stage tables come from its
own Parquet parts; documents, sources and checks from DuckDB.
"""

from __future__ import annotations

import duckdb

from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.sqlfiles import Sql, literal_sql, query, relation_sql
from groundwork.warehouse.store import Warehouse
from schemas.export import ENTITIES, Provenance

RUN_TABLES = (
    "chunks",
    "requirements",
    "questions",
    "verifications",
    "answers",
    "statements",
    "citations",
)
# Tables of claim-level verification: a run composed before it has none, and exports them empty.
CLAIM_TABLES = ("claims", "claim_numbers", "citation_corrections")


class NotExportable(Exception):
    """The run does not exist, or lacks tables: a usage error."""


class StaleDocuments(Exception):
    """Documents were edited after the run, so its quotes no longer sit at their offsets."""


def missing_tables(warehouse: Warehouse, run_id: str) -> list[str]:
    """The stage tables an export needs that the run has no committed parts of."""
    return [t for t in RUN_TABLES if not warehouse.parts(t, run_id)]


def exportable_run(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run: str | None) -> str:
    """The run to export: the one named, or the published run; NotExportable if there is none
    or it lacks tables (a run collected by `gc`, or stopped by `--only`)."""
    if run is None:
        published = query(con, "runs/published").fetchone()
        if published is None:
            raise NotExportable(f"nothing is published in {warehouse.root}: name a run with --run")
        run = published[0]
    if not query(con, "diff/known_run", {"run_id": run}).fetchone()[0]:
        raise NotExportable(f"no run {run} with tables in {warehouse.root}")
    missing = missing_tables(warehouse, run)
    if missing:
        raise NotExportable(f"run {run} has no {', '.join(missing)} tables to export")
    return run


def _records(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def _with_sentences(con: duckdb.DuckDBPyConnection, requirements: Sql) -> Sql:
    """A run's requirements relation with the sentence columns, null for a run extracted
    before they were recorded."""
    columns = {row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {requirements}").fetchall()}
    if "sentence_start" in columns:
        return requirements
    shim = relation_sql("export/requirements_before_sentences", requirements=requirements)
    return Sql(f"({shim})")


def provenance(con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str) -> Provenance:
    """The run's provenance, every record validated against its export model."""
    parts = run_parts(warehouse, run_id, *RUN_TABLES)
    parts["requirements"] = _with_sentences(con, parts["requirements"])
    stale = _records(con, literal_sql("export/stale_documents", **parts))
    if stale:
        raise StaleDocuments(
            f"run {run_id} cannot be exported: documents edited since then no longer hold its "
            f"quotes at their offsets ({', '.join(r['doc_id'] for r in stale[:5])})"
        )
    present = [t for t in CLAIM_TABLES if warehouse.parts(t, run_id)]
    parts |= run_parts(warehouse, run_id, *present)
    # numbered by their place in the files: the order compose wrote them in
    parts |= {
        f"{t}_files": warehouse.sql_path(warehouse.run_dir(t, run_id) / "part-*.parquet")
        for t in present
    }
    tables = {
        name: _records(con, literal_sql(f"export/{name}", **parts, run_id=run_id))
        if name not in CLAIM_TABLES or name in present
        else []
        for name in ENTITIES
    }
    return Provenance.model_validate({**tables, "run": tables["run"][0]})
