"""A warehouse whose groundwork.duckdb is not a DuckDB database (truncated, overwritten): every
command says so in one line naming the file and what to do, exit 1, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwork.cli import app

from .conftest import SAMPLE_CORPUS

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


def test_a_run_on_a_damaged_warehouse_stops_with_one_line(damaged):
    cli = Path(sys.executable).parent / "groundwork"
    result = subprocess.run(
        [str(cli), "run", "--corpus", str(SAMPLE_CORPUS), "--warehouse", str(damaged)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    (line,) = [ln for ln in output.splitlines() if ln.strip()]
    assert line.startswith("error: ") and MESSAGE in line
