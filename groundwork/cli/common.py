"""What more than one command module uses: the consoles, the exit codes and their help, the
--warehouse option and the check that a warehouse exists. Kept apart so that the command modules
import this and never the package that assembles them (no import loops)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from schemas.config import warehouse_dir

if TYPE_CHECKING:  # imported lazily at run time: `groundwork --help` stays fast
    import duckdb

    from groundwork.warehouse.store import Warehouse

err = Console(stderr=True, soft_wrap=True)
out = Console()

EXIT_REJECTED, EXIT_FAILED, EXIT_USAGE = 3, 1, 2
# The help's epilogs: lines as written (typer's rich help keeps an epilog's line breaks).
EXIT_CODES = f"""Exit codes:
  0  done
  {EXIT_REJECTED}  done, but some input was rejected and named: files, records or model replies \
(run), rows (judge pairs, judge claims)
  {EXIT_FAILED}  failed: a stage, a hard check or a query failed, or the warehouse cannot be used \
(held by another process, damaged, a file of it missing)
  {EXIT_USAGE}  bad usage: an unknown command or option, a missing or bad value, a path that does \
not exist"""
RUN_EXIT_CODES = f"""Exit codes:
  0  published, nothing rejected; or nothing to do (the inputs are the published run's)
  {EXIT_REJECTED}  published, but some files, records or model replies were rejected (named \
above the summary, and in rejected_documents, rejected_questions, model_rejections)
  {EXIT_FAILED}  a stage or a hard check failed and nothing was published, or the warehouse \
cannot be used (held by another run or process, damaged)
  {EXIT_USAGE}  bad usage, such as a missing corpus folder or an unknown profile"""
WarehouseOption = Annotated[
    Path | None,
    typer.Option(
        "--warehouse",
        "-w",
        help="warehouse folder (default: $GROUNDWORK_WAREHOUSE or ./warehouse)",
        show_default=False,
    ),
]


def answered_run(con: duckdb.DuckDBPyConnection, wh: Warehouse, run_id: str | None) -> str:
    """The run a reading command reads answers of: `run_id`, or else the published run; a usage
    error in one line when nothing is published or the run has no answers."""
    from groundwork.report.data import has_answers, published_run

    run_id = run_id or published_run(con)
    if run_id is None:
        err.print("[red]error:[/] nothing is published yet: name a run with --run")
        raise typer.Exit(EXIT_FAILED)
    if not has_answers(wh, run_id):
        err.print(f"[red]error:[/] run {run_id} has no answers in {wh.root}")
        raise typer.Exit(EXIT_USAGE)
    return run_id


def existing_warehouse(warehouse: Path | None, as_found: bool = False) -> Warehouse:
    """The warehouse to read, or a usage error when there is none yet. One of an older format is
    migrated in place first (groundwork/warehouse/migrations.py), unless `as_found`."""
    from groundwork.warehouse.errors import WarehouseDamaged
    from groundwork.warehouse.migrations import upgraded
    from groundwork.warehouse.store import Warehouse

    wh = Warehouse(warehouse_dir(warehouse))
    if not wh.exists():
        err.print(f"[red]error:[/] no warehouse at {wh.root} (run `groundwork run` first)")
        raise typer.Exit(EXIT_USAGE)
    try:
        wh.check_database()
    except WarehouseDamaged as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    if not as_found:
        upgraded(wh)  # WarehouseNewer: the command group says it in one line
    return wh
