"""The `groundwork` command line: run the pipeline, query the warehouse.

Exit codes (common.py, and the epilog of `groundwork --help`): 0 done; 3 done, but some input
was rejected and named (`run`: published with rejected files, records or model replies, listed
above the summary and in `rejected_documents`; `judge`: rejected rows); 1 failed (a stage, a hard
check, a query; or a warehouse that cannot be used), and for `run` nothing was published; 2 bad
usage (an unknown option, a missing or bad value, a missing corpus folder). A user's mistake is
one line on stderr, `error: ...`, never a traceback.

Only this module builds the app; the command modules define plain functions and never import it,
so they stay free of import loops. Registration order is the order `groundwork --help` lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from typing import Annotated

import duckdb
import typer
from rich.markup import escape

from groundwork.cli import judge, maintenance, outputs, query, run, score
from groundwork.cli.common import EXIT_CODES, EXIT_FAILED, RUN_EXIT_CODES, err, out
from groundwork.cli.help import Command, Group
from groundwork.runtime.compiled import activate
from groundwork.warehouse.errors import WarehouseUnusable, missing_file


@contextmanager
def _in_one_line() -> Iterator[None]:
    """click's errors (an unknown option, a missing or bad value, and those a command raises as
    `typer.BadParameter`) as one `error:` line and their exit code, where typer draws a usage
    line, a hint and a box."""
    try:
        yield
    except typer.TyperException as exc:  # the base of click's exceptions in typer's own click
        if type(exc).__name__ == "NoArgsIsHelpError":  # the help, already printed; as typer does
            raise
        ctx = getattr(exc, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        said = " ".join(exc.format_message().split())
        err.print(f"[red]error:[/] {escape(said)}{escape(hint)}", highlight=False)
        raise typer.Exit(exc.exit_code) from exc


class _Commands(Group):
    """The command group. Whichever command met it, it says in one line (exit 1) that the
    warehouse cannot be used: held by another process (a run, while `ask` reads), damaged, or
    missing a Parquet file that a view reads; and it says a usage error in one line (exit 2)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        with _in_one_line():
            return super().parse_args(ctx, args)

    def invoke(self, ctx: typer.Context) -> object:
        with _in_one_line():
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


def _print_version(wanted: bool) -> None:
    if wanted:
        out.print(f"groundwork {version('groundwork')}", highlight=False)
        raise typer.Exit()


app = typer.Typer(
    cls=_Commands,
    no_args_is_help=True,
    help="Evidence-first compliance pipeline: requirement register and answers.",
    epilog=EXIT_CODES,
)


@app.callback()
def _options(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="print the version and exit",
            is_eager=True,
            callback=_print_version,
        ),
    ] = False,
) -> None:
    """The options before the command; and the compiled rules engine switched on, before any
    command imports it (groundwork/runtime/compiled.py)."""
    activate()


app.command(cls=Command, epilog=RUN_EXIT_CODES)(run.run)
app.command(cls=Command)(query.sql)
app.command(cls=Command)(query.runs)
app.command(cls=Command)(query.diff)
app.command(cls=Command)(query.ask)
app.command(name="eval", cls=Command)(score.evaluate)
app.command(cls=Command)(outputs.report)
app.command(cls=Command)(maintenance.gc)
app.command(cls=Command)(maintenance.migrate)
app.command(cls=Command)(outputs.export)
app.add_typer(maintenance.cache_app, name="cache")
app.add_typer(judge.judge_app, name="judge")
