"""Looking after a warehouse rather than reading it: `gc` of old runs, and the `cache` sub-app
that moves the model response cache between warehouses."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from groundwork.cli.common import (
    EXIT_FAILED,
    EXIT_USAGE,
    WarehouseOption,
    err,
    existing_warehouse,
    out,
)
from groundwork.cli.help import Command, Group
from schemas.config import warehouse_dir


def gc(
    keep: Annotated[int, typer.Option("--keep", min=0, help="newest runs to keep")],
    warehouse: WarehouseOption = None,
) -> None:
    """Remove old runs' Parquet files and reports, and the Prefect task results no kept run can
    use; the published run, and runs whose parts a kept run still reads, are always kept, and
    every run keeps its row in `runs`."""
    from groundwork.warehouse.errors import WarehouseBusy
    from groundwork.warehouse.gc import collection

    wh = existing_warehouse(warehouse)
    try:
        done = collection(wh, keep)
    except WarehouseBusy as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    out.print(
        f"removed the files of {len(done.removed)} run(s): {', '.join(done.removed) or 'none'}"
    )
    if done.referenced:
        out.print(
            f"kept {len(done.referenced)} older run(s) whose parts later runs reuse: "
            + ", ".join(done.referenced)
        )
    if done.results:
        out.print(f"removed {done.results} Prefect task result(s) no kept run can use")


def migrate(
    check: Annotated[
        bool,
        typer.Option("--check", help="say the format and the steps that would run; change nothing"),
    ] = False,
    warehouse: WarehouseOption = None,
) -> None:
    """Bring the warehouse to this groundwork's format, in place, as the first command to open it
    would: in one transaction, with a copy of groundwork.duckdb kept beside it until it commits.
    Its register is carried over as it is; its views and published.duckdb are made again."""
    from groundwork.warehouse.migrations import migrated, planned
    from groundwork.warehouse.schema import FORMAT

    wh = existing_warehouse(warehouse, as_found=True)
    with wh.connect(read_only=check, as_found=True) as con:
        migration = planned(con, wh)  # WarehouseNewer for a newer one, said in one line
        if migration is None:
            out.print(f"{wh.root} holds no tables yet: the first run creates format {FORMAT}")
            return
        out.print(f"{wh.root}: {migration.found.said()}; this groundwork writes format {FORMAT}")
        if not migration.steps:
            out.print("nothing to migrate")
            return
        out.print("steps that would run:" if check else "steps:")
        for step in migration.steps:
            out.print(f"  {step.change}", highlight=False)
        if check:
            out.print("then the views and published.duckdb are made again; nothing was changed")
            return
        run_id = migrated(con, wh, migration)
    out.print(f"migrated to format {FORMAT} (recorded in runs as {run_id})")


cache_app = typer.Typer(
    cls=Group, no_args_is_help=True, help="Export or import the model response cache."
)


@cache_app.command("export", cls=Command)
def cache_export(
    path: Annotated[Path, typer.Argument(help="Parquet file to write")],
    warehouse: WarehouseOption = None,
) -> None:
    """Write every cached model reply to a Parquet file (to replay a run elsewhere)."""
    from groundwork.llm.cache import export_cache

    with existing_warehouse(warehouse).connect() as con:
        n = export_cache(con, path)
    out.print(f"exported {n:,} cached model replies to {path}")


@cache_app.command("import", cls=Command)
def cache_import(
    path: Annotated[Path, typer.Argument(help="Parquet file written by `cache export`")],
    warehouse: WarehouseOption = None,
) -> None:
    """Add the replies of an exported cache to this warehouse's cache (existing keys win)."""
    import duckdb

    from groundwork.llm.cache import import_cache
    from groundwork.warehouse.errors import WarehouseUnusable
    from groundwork.warehouse.migrations import upgraded
    from groundwork.warehouse.store import Warehouse

    if not path.is_file():
        err.print(f"[red]error:[/] {path} does not exist")
        raise typer.Exit(EXIT_USAGE)
    wh = Warehouse(warehouse_dir(warehouse))
    try:
        upgraded(wh)  # an older one migrated in place; a new one is created by the writer
        with wh.connect() as con:
            n = import_cache(con, path)
    except WarehouseUnusable as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    except duckdb.Error as exc:
        err.print(f"[red]error:[/] {path} is not an exported model cache: {exc}")
        raise typer.Exit(EXIT_FAILED) from exc
    out.print(f"imported {n:,} model replies from {path}")
