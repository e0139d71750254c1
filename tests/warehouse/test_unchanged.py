"""`groundwork run` on inputs equal to the published run's: the CLI decides so before Prefect
starts (groundwork/warehouse/unchanged.py) and records the run as the flow would; any change goes to the
flow."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from groundwork.warehouse.store import Warehouse
from groundwork.warehouse.unchanged import unchanged_run
from schemas.config import RunConfig
from tests.support.paths import SAMPLE_CORPUS
from tests.support.warehouses import rows

pytestmark = pytest.mark.slow
# The CLI as a user runs it, and whether it imported Prefect by the time it exits.
CLI = """
import atexit, sys
atexit.register(lambda: print("prefect imported:", "prefect" in sys.modules))
from groundwork.cli import app
sys.argv = ["groundwork", *sys.argv[1:]]
app()
"""


def test_an_unchanged_run_is_recorded_without_prefect(tmp_path: Path):
    corpus, warehouse, config = tmp_path / "corpus", tmp_path / "wh", tmp_path / "config.yaml"
    shutil.copytree(SAMPLE_CORPUS, corpus)
    config.write_text("workers: 1\ndata_docs: false\n")
    args = ["run", "-c", str(corpus), "-w", str(warehouse), "--config", str(config)]
    first = subprocess.run(
        [sys.executable, "-c", CLI, *args], capture_output=True, text=True, timeout=300
    )
    assert first.returncode == 0, first.stderr
    assert "PUBLISHED" in first.stdout and "prefect imported: True" in first.stdout
    again = subprocess.run(
        [sys.executable, "-c", CLI, *args], capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr
    assert "UNCHANGED" in again.stdout and "prefect imported: False" in again.stdout
    history = rows(
        warehouse,
        "SELECT status, reused_run IS NOT NULL, flow_run_id IS NOT NULL, counts "
        "FROM runs ORDER BY started_at",
    )
    assert [h[:3] for h in history] == [("published", False, True), ("unchanged", True, False)]
    assert history[0][3] == history[1][3]  # the counts of the run it reused

    (corpus / "statutes" / "us-cfr-45-164.404.md").write_text("A covered entity must act.\n")
    settings = RunConfig(workers=1, data_docs=False)
    assert unchanged_run(corpus, Warehouse(warehouse), None, settings) is None
    assert len(rows(warehouse, "SELECT * FROM runs")) == 2  # the flow records the run
