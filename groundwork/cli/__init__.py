"""The `groundwork` command line: run the pipeline, query the warehouse.

Exit codes of `run`: 0 published with nothing rejected; 3 published, but some files or records
were rejected (listed above the summary and in `rejected_documents`); 1 the run failed a hard
check or a stage, and nothing was published; 2 bad usage (for example a missing corpus folder).

Only this module builds the app; the command modules define plain functions and never import it,
so they stay free of import loops. Registration order is the order `groundwork --help` lists.
"""

from __future__ import annotations

import click
import duckdb
import typer
from typer.core import TyperGroup

from groundwork.cli import judge, maintenance, outputs, query, run
from groundwork.cli.common import EXIT_FAILED, err
from groundwork.warehouse import WarehouseUnusable, missing_file


class _Commands(TyperGroup):
    """The command group, saying in one line (exit 1) that the warehouse cannot be used,
    whichever command met it: held by another process (a run, while `ask` reads), damaged, or
    missing a Parquet file that a view reads."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except WarehouseUnusable as exc:
            err.print(f"[red]error:[/] {exc}", highlight=False)
            raise typer.Exit(EXIT_FAILED) from exc
        except duckdb.IOException as exc:
            missing = missing_file(exc)
            if missing is None:
                raise
            err.print(f"[red]error:[/] {missing}", highlight=False)
            raise typer.Exit(EXIT_FAILED) from exc


app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    no_args_is_help=True,
    help="Evidence-first compliance pipeline: requirement register and answers.",
)
app.command()(run.run)
app.command()(query.sql)
app.command()(query.diff)
app.command()(query.ask)
app.command()(outputs.report)
app.command()(maintenance.gc)
app.command()(outputs.export)
app.add_typer(maintenance.cache_app, name="cache")
app.add_typer(judge.judge_app, name="judge")
