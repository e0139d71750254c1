"""How `--help` reads, for every command and group of the CLI: flags shown as flags, and help
text that wraps at the terminal's width rather than where a docstring's source lines end.

typer 0.29 (our pin) draws its rich help with two faults that these classes undo once, so that
no command has to work around them: it prints a type after every flag (`--force <bool>`, even
`--help <bool>`), and it keeps the line breaks of a docstring's later paragraphs, and of the
first paragraph in a group's command list, so summaries broke mid-sentence."""

from __future__ import annotations

import inspect
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from groundwork.cli.common import EXIT_CODES


def reflowed(text: str | None) -> str | None:
    """`text` with each paragraph on one line: the help printer wraps it to the terminal."""
    if text is None:
        return None
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


class _Readable:
    """Reflows the help text it is built with, prints flags without a type, and ends the help
    with the exit codes (unless given another epilog)."""

    def __init__(
        self, *args: Any, help: str | None = None, epilog: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, help=reflowed(help), epilog=epilog or EXIT_CODES, **kwargs)

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        # typer's rich help prints a parameter's metavar in place of its type: an empty one
        # leaves a flag (ours, --help, --version, the completion options) without any
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        super().format_help(ctx, formatter)  # type: ignore[misc]


class Command(_Readable, TyperCommand):
    """A command of the CLI (`app.command(cls=Command)`)."""


class Group(_Readable, TyperGroup):
    """A group of commands of the CLI (`typer.Typer(cls=Group)`)."""
