"""Great Expectations: suites that restate the review gates with their thresholds, Data Docs
beside each run's report, and the outcome as a soft row of check_results."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import groundwork.quality.data_docs
from groundwork.quality.data_docs import CHECK_NAME, quality_frames, recorded_data_docs, validated
from groundwork.quality.expectations import expectation_suites
from groundwork.review import checks
from groundwork.warehouse import Warehouse

from .test_flow import rows

GATES = {c.name: c for c in checks()}


def _expectations(table: str, check: str) -> list:
    return [e for e in expectation_suites(GATES)[table] if (e.meta or {}).get("check") == check]


def test_soft_gates_keep_their_threshold_as_mostly():
    (quote_length,) = _expectations("requirements", "quote_length")
    assert quote_length.mostly == pytest.approx(1 - GATES["quote_length"].threshold)
    assert quote_length.severity == "warning" and quote_length.min_value == 10
    (coverage,) = _expectations("answers", "answer_coverage")
    assert coverage.mostly == pytest.approx(1 - GATES["answer_coverage"].threshold)
    (documents,) = _expectations("documents", "documents_without_requirements")
    assert documents.mostly == pytest.approx(0.4)


def test_hard_gates_allow_no_failing_row():
    hard = [e for suite in expectation_suites(GATES).values() for e in suite if e.meta]
    hard = [e for e in hard if e.meta["severity"] == "hard"]
    assert hard and all(e.mostly == 1 and e.severity == "critical" for e in hard)
    named = {e.meta["check"] for e in hard}
    assert {"requirement_ids_unique", "citations_verified", "statements_cited"} <= named
    assert named <= {n for n, c in GATES.items() if c.severity == "hard"}


@pytest.fixture(scope="module")
def published_docs(answered_warehouse):
    warehouse, summary = answered_warehouse  # its Data Docs are written (conftest)
    return warehouse, summary.run_id


def test_each_run_writes_data_docs_beside_its_report(published_docs):
    warehouse, run_id = published_docs
    folder = warehouse / "reports" / run_id
    assert (folder / "answers.md").is_file() and (folder / "data_docs" / "index.html").is_file()
    suites = {p.name for p in (folder / "data_docs" / "validations").iterdir()}
    assert suites == set(expectation_suites(GATES))
    index = (folder / "data_docs" / "index.html").read_text()
    assert run_id in index and "statements" in index


def test_outcome_is_a_soft_row_of_check_results(published_docs):
    warehouse, run_id = published_docs
    ((severity, passed, value, failed, metric),) = rows(
        warehouse,
        "SELECT severity, passed, value, offending_rows, metric FROM check_results "
        f"WHERE run_id = '{run_id}' AND check_name = '{CHECK_NAME}'",
    )
    evaluated = sum(len(s) for s in expectation_suites(GATES).values())
    assert (severity, passed, value, failed) == ("soft", True, 0.0, 0)
    assert f"share of {evaluated} Great Expectations expectations" in metric
    assert f"reports/{run_id}/data_docs/index.html" in metric


def test_broken_tables_fail_the_expectations_of_their_gates(published_docs, tmp_path):
    warehouse, run_id = published_docs
    with Warehouse(warehouse).connect(read_only=True) as con:
        frames = quality_frames(con, Warehouse(warehouse), run_id, expectation_suites(GATES))
    requirements = frames["requirements"]
    frames["requirements"] = requirements.assign(
        requirement_id=[requirements.requirement_id[0]] * len(requirements)
    )
    frames["citations"] = frames["citations"].assign(verified_for_question=False)
    outcome = validated(frames, expectation_suites(GATES), run_id, tmp_path / "data_docs")
    assert not outcome.success and outcome.index.is_file()
    assert {f["check"] for f in outcome.failed} == {"requirement_ids_unique", "citations_verified"}


def test_a_great_expectations_error_is_reported_not_raised(published_docs, tmp_path, monkeypatch):
    from great_expectations.exceptions import GreatExpectationsError

    warehouse = tmp_path / "wh"
    shutil.copytree(published_docs[0], warehouse)

    def broken(*_):
        raise GreatExpectationsError("no suite")

    monkeypatch.setattr(groundwork.quality.data_docs, "validated", broken)
    row = recorded_data_docs(Warehouse(warehouse), published_docs[1])
    assert (row["passed"], row["offending_rows"], row["value"]) == (False, 1, 1.0)
    assert json.loads(row["sample"]) == [{"error": "GreatExpectationsError: no suite"}]
    assert rows(
        warehouse, f"SELECT count(*) FROM check_results WHERE check_name = '{CHECK_NAME}'"
    ) == [(1,)]


def test_data_docs_of_a_warehouse_named_by_a_relative_path(published_docs, tmp_path, monkeypatch):
    """`groundwork run` takes ./warehouse by default: the job must not need an absolute path."""
    shutil.copytree(published_docs[0], tmp_path / "wh")
    monkeypatch.chdir(tmp_path)
    row = recorded_data_docs(Warehouse(Path("wh")), published_docs[1])
    assert (
        row["passed"] and (tmp_path / "wh" / "reports" / published_docs[1] / "data_docs").is_dir()
    )
