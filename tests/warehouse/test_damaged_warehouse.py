"""A warehouse whose groundwork.duckdb is not a DuckDB database (truncated, overwritten): every
command says so in one line naming the file and what to do, exit 1, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from tests.support.cli import failed_run_line

MESSAGE = "is not a DuckDB database: restore it from a backup"


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    (tmp_path / "groundwork.duckdb").write_text("not a database, an overwritten file\n")
    return tmp_path


@pytest.mark.parametrize(
    "args",
    [
        ["sql", "SELECT 1"],
        ["export"],
        ["report"],
        ["diff"],
        ["ask", "How long must records be kept?"],
        ["gc", "--keep", "1"],
    ],
)
def test_a_reading_command_says_the_database_is_damaged_in_one_line(damaged, args):
    result = CliRunner().invoke(app, [*args, "-w", str(damaged)])
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [
        f"error: {damaged / 'groundwork.duckdb'} {MESSAGE}, or move it away and run again to "
        "rebuild the warehouse from the corpus"
    ]


@pytest.mark.slow  # `groundwork run` in a process of its own: Prefect starts a server
def test_a_run_on_a_damaged_warehouse_stops_with_one_line(damaged):
    assert MESSAGE in failed_run_line(damaged)


MISSING = "is missing (deleted or moved under it): restore the warehouse folder from a backup"


@pytest.fixture
def gutted(sample_copy) -> Path:
    """A copy of the published warehouse with one Parquet file of its register deleted."""

    warehouse = sample_copy
    (part,) = warehouse.glob("tables/requirements/run_id=*/part-00000.parquet")
    part.unlink()
    return warehouse


@pytest.mark.parametrize(
    "args",
    [
        ["sql", "SELECT count(*) FROM current_requirements"],
        ["report"],
        ["ask", "How long must records be kept?"],
    ],
)
def test_a_parquet_file_deleted_under_a_view_is_one_line(gutted, args):
    result = CliRunner().invoke(app, [*args, "-w", str(gutted)])
    assert result.exit_code == 1, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: the warehouse's tables/requirements/run_id=") and MISSING in line


def test_a_run_meeting_a_deleted_parquet_file_says_so_without_prefects_traceback(gutted):
    """What a run prints when a stage meets the hole: Prefect's traceback and failed-state lines
    are dropped (the CLI prints the one line), other records pass."""
    import logging

    import duckdb

    from groundwork.cli.run import _UsersMistakes
    from groundwork.warehouse.errors import missing_file
    from groundwork.warehouse.store import Warehouse

    with (
        Warehouse(gutted).connect(read_only=True) as con,
        pytest.raises(duckdb.IOException) as hole,
    ):
        con.execute("SELECT count(*) FROM current_requirements").fetchall()
    assert MISSING in str(missing_file(hole.value))

    def record(message: str, exc: BaseException | None = None) -> logging.LogRecord:
        info = (type(exc), exc, None) if exc else None
        return logging.LogRecord("prefect.task_runs", logging.ERROR, "", 0, message, (), info)

    keep = _UsersMistakes().filter
    assert not keep(record("Task run failed with exception", hole.value))
    assert not keep(record(f"Finished in state Failed('Task run encountered {hole.value}')"))
    assert keep(record("Task run failed", ValueError("a bug, with its traceback")))
    assert keep(record("Finished in state Completed()"))
