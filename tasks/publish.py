"""Stage `publish`: move the current_* views to this run, only when every hard check passed.

A run that fails a hard check is recorded as failed; its Parquet files stay (queryable through the
all-runs views, marked by `runs.status`), and the published run the views point at is untouched.
"""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.publication import started_data_docs, write_reports
from groundwork.review import failed_hard_checks
from groundwork.snapshot import written_snapshot
from groundwork.sqlfiles import run_script
from groundwork.warehouse import PARQUET_TABLES, Warehouse, refresh_views


@task(name="publish", cache_policy=NO_CACHE)
def publish_stage(
    warehouse: Warehouse, run_id: str, results: list[dict], data_docs: bool = True
) -> bool:
    """Publish the run if its hard checks passed; refresh views either way. True if published.
    The decision committed, write the published run's reports and its snapshot for readers
    (published.duckdb), then start the run's Data Docs (unless `data_docs` is off)."""
    publish = not failed_hard_checks(results)
    with warehouse.connect() as con:
        con.execute("BEGIN TRANSACTION")
        if publish:
            run_script(con, "runs/publish", {"run_id": run_id, "tables": list(PARQUET_TABLES)})
        refresh_views(con, warehouse)
        con.execute("COMMIT")
        if publish:
            write_reports(con, warehouse, run_id)
            written_snapshot(con, warehouse, run_id)
    if data_docs:
        started_data_docs(warehouse, run_id)
    return publish
