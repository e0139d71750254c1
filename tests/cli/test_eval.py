"""`groundwork eval`: the shipped questions scored against the published sample run, as JSON, a
table and a file; a bad labels file or a run that never saw the questions is one error line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from tests.support.paths import SAMPLE_QUESTIONS

RUNNER = CliRunner()


def one_error_line(result, code: int = 2) -> str:
    """The command ended with `code`, no traceback, and one `error:` line, which is returned."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    return errors[0]


@pytest.mark.slow
def test_the_shipped_questions_are_scored_against_the_published_run(
    published_sample, tmp_path: Path
):
    warehouse, summary = published_sample
    written = tmp_path / "scores.json"
    result = RUNNER.invoke(
        app, ["eval", str(SAMPLE_QUESTIONS), "-w", str(warehouse), "--json", "-o", str(written)]
    )
    assert result.exit_code == 0, result.output
    scores = json.loads(result.output)
    assert json.loads(written.read_text()) == scores
    assert scores["run_id"] == summary.run_id and scores["not_in_run"] == []
    every = scores["summary"][-1]
    assert every["group"] == "all"
    assert (every["questions"], every["answerable"], every["unanswerable"]) == (85, 74, 11)
    false_answers = every["unanswerable"] - every["refused"]
    assert every["answered"] + false_answers == summary.answered
    assert 0 < every["answered_citing_expected"] <= every["answered"]
    assert every["recall_at_10"] is None  # the demo labels documents, not passages
    assert {r["group"] for r in scores["summary"][:-1]} >= {"breach-notification"}
    assert len(scores["questions"]) == 85
    table = RUNNER.invoke(app, ["eval", str(SAMPLE_QUESTIONS), "-w", str(warehouse), "--details"])
    assert table.exit_code == 0, table.output
    assert "all" in table.output and "Q001" in table.output


def test_a_malformed_labels_file_is_one_line_and_exit_2(tmp_path: Path):
    labels = tmp_path / "labels.yaml"
    labels.write_text(
        "questions:\n"
        "  - question_id: Q1\n"
        "    question: When must we notify?\n"
        "    expected: perhaps\n"
    )
    line = one_error_line(RUNNER.invoke(app, ["eval", str(labels), "-w", str(tmp_path / "wh")]))
    assert "labels.yaml, line 2: expected: should be answerable or unanswerable" in line


@pytest.mark.slow
def test_labels_the_run_never_answered_are_one_line(published_sample, tmp_path: Path):
    labels = tmp_path / "other.jsonl"
    labels.write_text('{"id": "ELSEWHERE-1", "question": "Who?", "answerable": false}\n')
    warehouse, _ = published_sample
    line = one_error_line(RUNNER.invoke(app, ["eval", str(labels), "-w", str(warehouse)]))
    assert "answered none of the 1 questions" in line
