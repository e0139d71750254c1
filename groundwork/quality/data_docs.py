"""Great Expectations over a run's tables, written as Data Docs beside the run's report.

The review gates in sql/checks/ are the authority for publishing: a run publishes only when every
hard gate passes, and nothing here changes that, runs before that decision, or can stop it. This
is the human-readable data-quality document: the same gates, restated as expectations
(groundwork/quality/expectations.py) with their thresholds, rendered as HTML with the failing
values, in `<warehouse>/reports/<run_id>/data_docs/index.html`.

Its outcome is one row in `check_results`, check `great_expectations`, severity `soft`: the table
every reader of a run's quality already queries (`groundwork sql`, `dashboard_run_failures`),
with no new columns, and a soft row never blocks publication (`failed_hard_checks` ignores it).
`value` is the share of expectations that failed, `metric` says how many were evaluated and
where the Data Docs are, `sample` lists the failed expectations.

Great Expectations runs in an ephemeral context (in-memory stores; only the Data Docs site is on
disk), over pandas DataFrames of the run's Parquet tables (sql/quality/), with analytics and
progress bars off. It makes no network call, and neither do the pages when opened: they load
their scripts and stylesheets from copies inside the site (groundwork/quality/offline.py).
"""

from __future__ import annotations

import html
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd
from pandas.api.types import is_string_dtype

from groundwork.warehouse.errors import WarehouseBusy, WarehouseUnusable
from groundwork.warehouse.lineage import run_parts
from groundwork.warehouse.locking import BACKGROUND
from groundwork.warehouse.sqlfiles import literal_sql, query, sql_text
from groundwork.warehouse.store import Warehouse

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")  # read when great_expectations loads

import great_expectations as gx
from great_expectations.core.run_identifier import RunIdentifier
from great_expectations.data_context import EphemeralDataContext
from great_expectations.data_context.types.base import (
    DataContextConfig,
    InMemoryStoreBackendDefaults,
    ProgressBarsConfig,
)
from great_expectations.exceptions import GreatExpectationsError

from groundwork.quality.expectations import Suites, expectation_suites
from groundwork.quality.gates import checks
from groundwork.quality.offline import localise_site

CHECK_NAME = "great_expectations"
SITE = "run"
FRAME_TABLES = ("requirements", "answers", "statements", "citations", "verifications", "claims")


@dataclass(frozen=True)
class Outcome:
    """What a validation of all suites came to."""

    evaluated: int
    failed: list[dict]
    index: Path

    @property
    def success(self) -> bool:
        return not self.failed


def quality_frames(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, run_id: str, tables: Iterable[str]
) -> dict[str, pd.DataFrame]:
    """Table -> the run's rows as its suite reads them (sql/quality/<table>.sql)."""
    parts = run_parts(warehouse, run_id, *FRAME_TABLES)
    return {
        table: _frame(con.execute(literal_sql(f"quality/{table}", **parts))) for table in tables
    }


def _frame(result: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """A query's result as pandas, through Arrow, each Arrow buffer released as pandas takes it.
    `.df()` held DuckDB's copy of the result and pandas' at once: on ten times the bench corpus,
    about twice the memory this way takes (BENCHMARKS.md, "Great Expectations Data Docs")."""
    return result.to_arrow_table().to_pandas(self_destruct=True, split_blocks=True)


def _context(site: Path) -> EphemeralDataContext:
    """An in-memory context whose only file output is the Data Docs site in `site`."""
    config = DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(),
        analytics_enabled=False,
        progress_bars=ProgressBarsConfig(globally=False),
        data_docs_sites={
            SITE: {
                "class_name": "SiteBuilder",
                "show_how_to_buttons": False,
                "store_backend": {
                    "class_name": "TupleFilesystemStoreBackend",
                    "base_directory": str(site),
                },
                "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
            }
        },
    )
    return gx.get_context(mode="ephemeral", project_config=config)


def _failure(table: str, result) -> dict:
    """A failed expectation, as the check_results sample lists it."""
    config = result.expectation_config
    observed = result.result or {}
    return {
        "suite": table,
        "expectation": config.type,
        "column": config.kwargs.get("column") or config.kwargs.get("column_list"),
        "check": (config.meta or {}).get("check"),
        "description": config.description,
        "unexpected_percent": observed.get("unexpected_percent"),
        "observed_value": observed.get("observed_value"),
    }


def html_escaped(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with every text cell HTML-escaped, for the Data Docs.

    Great Expectations writes the values a failed expectation lists into the pages as they are
    (its templates do not escape them), and IDs and quotes come from the user's files: a
    question_id may hold `<script>` (schemas/ids.py allows it). Escaping keeps distinct texts
    distinct and leaves every value the expectations compare against (requirement IDs, results,
    verdicts, modalities) as it is, so each expectation has the same outcome on the escaped frame.
    """
    texts = [c for c in frame.columns if frame[c].dtype == object or is_string_dtype(frame[c])]
    escaped = {
        c: frame[c].map(lambda v: html.escape(v) if isinstance(v, str) else v) for c in texts
    }
    return frame.assign(**escaped)


def validated(
    frames: dict[str, pd.DataFrame], suites: Suites, run_id: str, folder: Path
) -> Outcome:
    """Validate each frame against its table's suite and write the Data Docs site to `folder`
    (replaced whole: written beside it, then renamed), with local copies of the files its pages
    load. The frames are validated HTML-escaped, since the pages show their failing values."""
    partial = folder.with_name(f".{folder.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    context = _context(partial.resolve())  # Great Expectations wants an absolute path
    source = context.data_sources.add_pandas("run_tables")
    run = RunIdentifier(run_name=run_id)
    evaluated, failed = 0, []
    for table, expectations in suites.items():
        batch = source.add_dataframe_asset(table).add_batch_definition_whole_dataframe(table)
        suite = context.suites.add(gx.ExpectationSuite(name=table, expectations=expectations))
        definition = context.validation_definitions.add(
            gx.ValidationDefinition(name=table, data=batch, suite=suite)
        )
        frame = html_escaped(frames[table])
        result = definition.run(batch_parameters={"dataframe": frame}, run_id=run)
        evaluated += result.statistics["evaluated_expectations"]
        failed += [_failure(table, r) for r in result.results if not r.success]
    context.build_data_docs(site_names=[SITE])
    localise_site(partial)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(partial, folder)
    return Outcome(evaluated, failed, folder / "index.html")


def check_row(run_id: str, outcome: Outcome, warehouse: Warehouse) -> dict:
    """The outcome as a soft `check_results` row."""
    where = outcome.index.relative_to(warehouse.root)
    return {
        "run_id": run_id,
        "check_name": CHECK_NAME,
        "table_name": "expectation_suites",
        "severity": "soft",
        "metric": f"share of {outcome.evaluated} Great Expectations expectations that failed "
        f"(Data Docs: {where})",
        "threshold": 0.0,
        "value": len(outcome.failed) / max(outcome.evaluated, len(outcome.failed), 1),
        "passed": outcome.success,
        "offending_rows": len(outcome.failed),
        "sample": json.dumps(outcome.failed, default=str),
    }


def recorded_data_docs(
    warehouse: Warehouse,
    run_id: str,
    guard: Callable[[], AbstractContextManager] = nullcontext,
) -> dict:
    """Validate the run's tables, write its Data Docs and record the outcome; returns its row.

    The tables are read on a read-only connection, which other readers (`groundwork sql`) can
    share, and the outcome is written on a short write connection at the end; `guard` is held
    around each of the two, not around the validation between them."""
    folder = warehouse.root / "reports" / run_id
    folder.mkdir(parents=True, exist_ok=True)
    suites = expectation_suites({c.name: c for c in checks()})
    with free_connection(warehouse, guard, read_only=True) as con:
        frames = quality_frames(con, warehouse, run_id, suites)
    try:
        outcome = validated(frames, suites, run_id, folder / "data_docs")
    except GreatExpectationsError as exc:  # the run is published already: report, do not undo
        outcome = Outcome(
            0, [{"error": f"{type(exc).__name__}: {exc}"}], folder / "data_docs" / "index.html"
        )
    row = check_row(run_id, outcome, warehouse)
    with free_connection(warehouse, guard) as con:
        query(con, "quality/clear_check", {"run_id": run_id})
        con.execute(sql_text("review/record_check"), row)
    return row


# How long the job waits for another process (a `groundwork sql`, a dashboard's DuckDB shell) to
# let go of groundwork.duckdb, and how often it looks: readers come and go in seconds, and the
# job runs in the background, so it waits rather than lose the run's Data Docs row.
READER_PATIENCE_S = 600.0
READER_POLL_S = 2.0


@contextmanager
def free_connection(
    warehouse: Warehouse,
    guard: Callable[[], AbstractContextManager],
    read_only: bool = False,
    patience_s: float = READER_PATIENCE_S,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection taken under `guard` once no other process holds the database; WarehouseBusy
    after `patience_s` of trying.

    A reader holds groundwork.duckdb without the run lock (`groundwork sql` takes none), so the
    lock alone does not make the file free: in a benchmark run, the benchmark's `groundwork sql`
    held it when the job came to write its row, and the job died with a traceback in its log.
    The guard is let go between tries, so runs do not queue behind a job that waits for a
    reader."""
    deadline = time.monotonic() + patience_s
    while True:
        with ExitStack() as held:
            held.enter_context(guard())
            try:
                con = held.enter_context(warehouse.connect(read_only=read_only))
            except WarehouseBusy:
                if time.monotonic() >= deadline:
                    raise
            else:
                yield con
                return
        time.sleep(READER_POLL_S)


def data_docs_job(warehouse: Warehouse, run_id: str) -> dict:
    """The background job a run starts after its publish decision (tasks/publish.py): it holds
    the run lock (waiting for the run to let go of it) while it reads and while it writes."""
    holder = f"{BACKGROUND}: data docs of {run_id}"
    return recorded_data_docs(warehouse, run_id, lambda: warehouse.run_lock(holder, wait=True))


if __name__ == "__main__":
    root, run = sys.argv[1:3]
    try:
        row = data_docs_job(Warehouse(Path(root)), run)
    except WarehouseUnusable as exc:  # one line in the job's log, as the CLI would say it
        sys.exit(f"error: the Data Docs of {run} were not recorded: {exc}")
    print(f"{row['check_name']}: passed={row['passed']} {row['metric']}")
