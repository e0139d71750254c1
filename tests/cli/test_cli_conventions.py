"""The CLI follows typer's and click's conventions: `--version`, completion, flags shown as
flags, exit codes in the help, and a user's mistake as one `error:` line with exit 2, never a
traceback, for every command there is (a new command is walked too)."""

from __future__ import annotations

import csv
import io
import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from groundwork.cli import app
from tests.support.servers import free_port

RUNNER = CliRunner()


def _commands(group: TyperGroup, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command of the CLI, groups' commands included."""
    found = []
    for name, command in group.commands.items():
        found.append((*path, name))
        if isinstance(command, TyperGroup):
            found += _commands(command, (*path, name))
    return found


COMMANDS = _commands(typer.main.get_command(app))


def _one_error_line(result, code: int = 2) -> str:
    """The run ended with `code`, no traceback, and one `error:` line, which is returned."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def test_every_command_is_walked():
    assert {("run",), ("sql",), ("runs",), ("ask",), ("cache", "export"), ("judge", "claims")} <= (
        set(COMMANDS)
    )


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_an_unknown_option_is_one_line_and_exit_2(command):
    line = _one_error_line(RUNNER.invoke(app, [*command, "--no-such-option"]))
    assert "--no-such-option" in line and "--help" in line


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_shows_flags_as_flags_and_says_the_exit_codes(command):
    result = RUNNER.invoke(app, [*command, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output and "BOOLEAN" not in result.output
    assert "Exit codes" in result.output


def test_bad_values_are_one_line_and_exit_2(tmp_path: Path):
    nowhere = f"tcp://127.0.0.1:{free_port()}"
    cases = [
        ["ask", ""],  # pydantic said this in a traceback, exit 1
        ["ask", "ok?", "-f", "pdf"],
        ["ask", "What must be done?", "--top-k", "0"],
        ["runs", "--limit", "0"],
        ["sql"],  # a missing argument
        ["run"],  # a missing required option
        ["run", "--corpus", str(tmp_path / "nowhere"), "--from-stage", "nope"],
        ["export", "--format", "docx"],
        # nothing answers there: one line at once, not a traceback after Dask's retries
        ["run", "--corpus", str(tmp_path), "--task-runner", "dask", "--dask-address", nowhere],
        ["diff", "--format", "yaml"],
        ["nonsense"],
    ]
    for args in cases:
        _one_error_line(RUNNER.invoke(app, args))


def test_a_question_too_short_says_why():
    line = _one_error_line(RUNNER.invoke(app, ["ask", ""]))
    assert "at least 3 characters" in line


def test_version():
    result = RUNNER.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"groundwork {version('groundwork')}"


def test_completion_is_offered():
    result = RUNNER.invoke(app, ["--help"])
    assert "--install-completion" in result.output and "--show-completion" in result.output


def test_help_summaries_are_not_broken_mid_sentence():
    """A command's summary in the group's list reads as one paragraph: each of its lines but
    the last runs to the table's edge (a docstring's own line breaks used to be kept)."""
    result = RUNNER.invoke(app, ["--help"], terminal_width=100)
    lines = [line for line in result.output.splitlines() if line.startswith("│ ")]
    widths = [len(line.rstrip(" │")) for line in lines]
    broken = [
        line
        for line, width, after in zip(lines, widths, lines[1:], strict=False)
        if width < 60 and re.match(r"│\s{6,}\S", after)  # a short line, then its continuation
    ]
    assert broken == []


@pytest.fixture(scope="module")
def warehouse(published_sample) -> Path:
    return published_sample[0]


def test_runs_lists_every_run_with_its_outcome(warehouse, published_sample):
    result = RUNNER.invoke(app, ["runs", "-w", str(warehouse), "-f", "json"])
    assert result.exit_code == 0, result.output
    (listed,) = json.loads(result.output)
    summary = published_sample[1]
    assert listed["run_id"] == summary.run_id and listed["status"] == "published"
    assert (listed["requirements"], listed["answered"]) == (summary.requirements, summary.answered)
    assert RUNNER.invoke(app, ["runs", "-w", str(warehouse), "--status", "failed"]).output == (
        "run_id,status,started,seconds,documents,requirements,questions,answered,rejected,attempts,"
        "error\n"
    )


def test_sql_writes_csv_when_piped_and_never_cuts_an_id(warehouse):
    query = "SELECT run_id, requirement_id FROM current_requirements ORDER BY 2 LIMIT 3"
    piped = RUNNER.invoke(app, ["sql", query, "-w", str(warehouse)])  # stdout is no terminal
    assert piped.exit_code == 0, piped.output
    table = list(csv.reader(io.StringIO(piped.output)))
    assert table[0] == ["run_id", "requirement_id"] and len(table) == 4
    wide = "SELECT * FROM current_requirements ORDER BY requirement_id LIMIT 2"
    narrow = RUNNER.invoke(
        app, ["sql", wide, "-w", str(warehouse), "-f", "table"], terminal_width=80
    )
    assert narrow.exit_code == 0, narrow.output
    run_id = table[1][0]
    assert run_id in narrow.output and "…" not in narrow.output


@pytest.mark.parametrize("fmt", ["markdown", "json", "csv"])
def test_ask_answers_in_each_format(warehouse, fmt):
    question = "What must a business associate do after discovering a breach?"
    result = RUNNER.invoke(app, ["ask", question, "-w", str(warehouse), "-f", fmt])
    assert result.exit_code == 0, result.output
    if fmt == "markdown":
        assert result.output.startswith("# Answers") and "[^1]: REQ-S" in result.output
    elif fmt == "json":
        assert json.loads(result.output)["result"] == "ANSWERED"
    else:
        table = list(csv.DictReader(io.StringIO(result.output)))
        assert table and {row["result"] for row in table} == {"ANSWERED"}
        assert all(re.search(r"\[REQ-S\d{4}\]", row["statement"]) for row in table)
