"""Stage `check_results`: run every review gate (groundwork/quality/gates.py) against the run,
record the results, and return them for the publish decision."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.quality.gates import check_result, checks
from groundwork.runtime.failpoints import failpoint
from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.lineage import own_relation, run_parts
from groundwork.warehouse.sqlfiles import run_script, sql_text
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig

# the run's tables the checks read, through review/run_views.sql
REVIEWED_TABLES = (
    "chunks",
    "requirements",
    "verifications",
    "answers",
    "statements",
    "citations",
    "claims",
)


@task(name="review", cache_policy=NO_CACHE)
def review_stage(warehouse: Warehouse, run_id: str, config: RunConfig) -> list[dict]:
    """Run all checks for the run, record them in `check_results`, and return them."""
    suite = checks()
    bar = stage_progress("review", len(suite), "checks")
    results = []
    with warehouse.connect() as con:
        fresh = {
            f"fresh_{t}": own_relation(warehouse, t, run_id) for t in ("chunks", "requirements")
        }
        parts = run_parts(warehouse, run_id, *REVIEWED_TABLES)
        run_script(con, "review/run_views", **parts, **fresh)
        run_script(con, "review/placed_requirements")
        for check in suite:
            results.append(check_result(con, check, run_id, check.threshold_for(config)))
            bar.advance()
        failpoint("review")
        run_script(con, "review/clear_checks", {"run_id": run_id})
        con.executemany(sql_text("review/record_check"), results)
    bar.finish()
    return results
