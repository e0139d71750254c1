"""The `groundwork` command as the tests call it: in this process (typer's runner) or in a
process of its own, as an operator runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from groundwork.cli import app

from .paths import SAMPLE_CORPUS


def exported(warehouse: Path, fmt: str, out: Path, *extra: str) -> Path:
    """`out`, written by `groundwork export` in format `fmt` (the command must succeed)."""
    result = CliRunner().invoke(
        app, ["export", "-f", fmt, "-w", str(warehouse), "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    return out


def failed_run_line(warehouse: Path) -> str:
    """The one line that `groundwork run` of the sample corpus, in a process of its own, says
    when it stops on `warehouse` (it must exit 1, without a traceback)."""
    cli = Path(sys.executable).parent / "groundwork"
    result = subprocess.run(
        [str(cli), "run", "--corpus", str(SAMPLE_CORPUS), "--warehouse", str(warehouse)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    (line,) = [ln for ln in output.splitlines() if ln.strip()]
    assert line.startswith("error: "), line
    return line
