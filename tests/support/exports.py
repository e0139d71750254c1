"""`groundwork export` as the export tests call it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from groundwork.cli import app


def exported(warehouse: Path, fmt: str, out: Path, *extra: str) -> Path:
    """`out`, written by `groundwork export` in format `fmt` (the command must succeed)."""
    result = CliRunner().invoke(
        app, ["export", "-f", fmt, "-w", str(warehouse), "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    return out
