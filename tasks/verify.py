"""Stage `verifications`: every retrieved requirement judged for its question by the configured
verification backend (groundwork/verify/); a candidate out of its question's scope (a law the
corpus never mentions, another state's law) is rejected (groundwork/verify/scope.py)."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.models.scores import gate_scorer
from groundwork.runtime.progress import stage_progress
from groundwork.verify import verifier
from groundwork.verify.scope import verdicts
from groundwork.warehouse.lineage import run_parts, table_rows
from groundwork.warehouse.parquet import write_run_table
from groundwork.warehouse.sqlfiles import literal_sql
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.contract import checked
from schemas.verifications import VERIFICATIONS_SCHEMA, Verifications


@task(name="verify", cache_policy=NO_CACHE)
def verify_stage(
    warehouse: Warehouse, run_id: str, idf: dict[str, float], config: RunConfig
) -> int:
    """Judge every retrieved requirement for its question; returns the number verified."""
    parts = run_parts(warehouse, run_id, "retrievals", "questions", "chunks", "requirements")
    bar = stage_progress("verify", None, "pairs")
    with warehouse.connect() as con:
        if table_rows(con, warehouse, "retrievals", run_id) == 0:
            # nothing retrieved (no question asked, or no chunk to find): no pair to join, and no
            # backend to open (loading the gate's model is a noticeable part of a small run)
            table = VERIFICATIONS_SCHEMA.empty_table()
        else:
            pairs = con.execute(literal_sql("answers/candidate_pairs", **parts)).to_arrow_table()
            scorer = gate_scorer(con) if config.verify == "trained" else None
            with verifier(config, warehouse, run_id, idf, scorer) as backend:
                found = verdicts(con, backend, pairs, idf)
            table = checked(found, Verifications, "verifications")
    write_run_table(warehouse, "verifications", run_id, table)
    bar.done(table.num_rows)
    return sum(table.column("verified").to_pylist())
