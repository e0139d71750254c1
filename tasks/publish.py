"""Stage `publish`: move the current_* views to this run, only when every hard check passed.

A run that fails a hard check is recorded as failed; its Parquet files stay (queryable through the
all-runs views, marked by `runs.status`), and the published run the views point at is untouched.
"""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.sqlfiles import run_script
from groundwork.warehouse import PARQUET_TABLES, Warehouse, refresh_views

ANSWER_TABLES = ("answers", "statements", "citations")


def failed_hard_checks(results: list[dict]) -> list[dict]:
    """The hard checks that did not pass."""
    return [r for r in results if r["severity"] == "hard" and not r["passed"]]


def failed_answer_checks(results: list[dict]) -> list[dict]:
    """Failed hard checks on the composed answers: the ones a recomposition may mend."""
    return [r for r in failed_hard_checks(results) if r["table_name"] in ANSWER_TABLES]


@task(name="publish", cache_policy=NO_CACHE)
def publish_stage(warehouse: Warehouse, run_id: str, results: list[dict]) -> bool:
    """Publish the run if its hard checks passed; refresh views either way. True if published."""
    publish = not failed_hard_checks(results)
    with warehouse.connect() as con:
        con.execute("BEGIN TRANSACTION")
        if publish:
            run_script(con, "runs/publish", {"run_id": run_id, "tables": list(PARQUET_TABLES)})
        refresh_views(con, warehouse)
        con.execute("COMMIT")
    return publish
