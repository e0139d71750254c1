"""Stage `publish`: move the current_* views to this run, only when every hard check passed.

A run that fails a hard check is recorded as failed; its Parquet files stay (queryable through the
all-runs views, marked by `runs.status`), and the published run the views point at is untouched.
"""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.quality.gates import failed_hard_checks
from groundwork.runtime.progress import stage_progress
from groundwork.warehouse.publication import published, started_data_docs
from groundwork.warehouse.store import Warehouse
from groundwork.warehouse.views import refresh_views


@task(name="publish", cache_policy=NO_CACHE)
def publish_stage(
    warehouse: Warehouse, run_id: str, results: list[dict], data_docs: bool = True
) -> bool:
    """Publish the run if its hard checks passed; refresh views either way. True if published.
    Publishing writes the run's reports and its snapshot for readers (published.duckdb), whole
    or not at all (groundwork/warehouse/publication.py); then the run's Data Docs start (unless
    `data_docs` is off)."""
    publish = not failed_hard_checks(results)
    bar = stage_progress("publish", None, "runs")
    with warehouse.connect() as con:
        if publish:
            published(con, warehouse, run_id)
        else:  # the all-runs views take in this run's tables
            con.execute("BEGIN TRANSACTION")
            refresh_views(con, warehouse)
            con.execute("COMMIT")
    bar.done(int(publish))
    if data_docs:
        started_data_docs(warehouse, run_id)
    return publish
