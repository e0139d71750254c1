"""Every run attempt leaves a row in `runs`, those that could not open the warehouse and those
that failed before their row was opened included (groundwork/warehouse/runs.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundwork.warehouse.errors import WarehouseBusy
from groundwork.warehouse.runs import UNRECORDED, run_session
from groundwork.warehouse.store import Warehouse
from tests.support.warehouses import held_lock


def _runs(warehouse: Warehouse) -> list[tuple]:
    with warehouse.connect(read_only=True) as con:
        return con.execute("SELECT status, corpus, error FROM runs ORDER BY started_at").fetchall()


def test_a_run_stopped_by_another_run_is_recorded_by_the_next(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path)
    thread = held_lock(warehouse, "flow run A", 1.0)
    with pytest.raises(WarehouseBusy), run_session(warehouse, "flow-b", "corpus-b"):
        pass
    thread.join()
    (note,) = [json.loads(line) for line in (tmp_path / UNRECORDED).read_text().splitlines()]
    assert note["flow_run_id"] == "flow-b" and "flow run A" in note["error"]
    with run_session(warehouse, "flow-c", "corpus-c"):
        pass
    assert _runs(warehouse) == [("failed", "corpus-b", note["error"])]
    assert (tmp_path / UNRECORDED).read_text() == ""
    with run_session(warehouse, "flow-d", "corpus-d"):  # recorded once, not again
        pass
    assert len(_runs(warehouse)) == 1


def test_a_run_that_fails_before_its_row_opens_leaves_a_failed_row(
    prefect_harness, tmp_path: Path
) -> None:
    from flows.corpus import corpus_run
    from groundwork.parameters import InvalidParameters

    missing = tmp_path / "no-such-corpus"
    with pytest.raises(InvalidParameters):
        corpus_run(corpus=str(missing), warehouse=str(tmp_path / "wh"))
    ((status, corpus, error),) = _runs(Warehouse(tmp_path / "wh"))
    assert (status, corpus) == ("failed", str(missing))
    assert error == f"corpus folder {missing} does not exist or is not a folder"


@pytest.mark.slow  # the flow starts (and Prefect its temporary server) before it fails
def test_a_missing_questions_file_fails_before_ingest_in_one_line(tmp_path: Path) -> None:
    """Exit 2, one line, no stage run (no documents table written), and a failed row."""
    from typer.testing import CliRunner

    from groundwork.cli import app
    from tests.support.paths import SAMPLE_CORPUS

    warehouse, questions = tmp_path / "wh", tmp_path / "typo.yaml"
    args = ["run", "-c", str(SAMPLE_CORPUS), "-q", str(questions), "-w", str(warehouse)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if "error" in line.lower()]
    assert errors == [f"error: questions file {questions} does not exist or is not a file"]
    assert not (warehouse / "tables").exists()  # before ingest: no stage wrote anything
    ((status, _, error),) = _runs(Warehouse(warehouse))
    assert status == "failed" and str(questions) in error
