"""`groundwork judge pairs`: good rows judged by the pipeline's gate, each malformed row one clear
line with its line number, exit codes as for `run`, results as CSV or JSONL."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.judge import UnreadablePairs, read_pairs
from groundwork.onnxmodels import MODELS_DIR, ModelInfo
from groundwork.relevance import MODEL

FIXTURES = Path(__file__).parent / "fixtures" / "judge"
runner = CliRunner()
THRESHOLD = ModelInfo.read(MODELS_DIR / MODEL).threshold


def test_jsonl_rows_are_read_and_each_bad_line_is_named():
    pairs = read_pairs(FIXTURES / "pairs.jsonl")
    assert [r["id"] for r in pairs.rows] == ["breach-deadline", "off-topic"]
    reasons = {r["line"]: r["reason"] for r in pairs.rejections}
    assert set(reasons) == {3, 4, 5, 6}
    assert reasons[3].startswith("invalid JSON")
    assert reasons[4] == "empty or missing: text"
    assert reasons[5] == "not an object with id, question, text"
    assert reasons[6] == "duplicate id 'breach-deadline'"


def test_csv_rows_are_read_with_their_line_numbers():
    pairs = read_pairs(FIXTURES / "pairs.csv")
    assert [r["id"] for r in pairs.rows] == ["q1"]
    assert pairs.rejections == [{"line": 3, "reason": "empty or missing: question"}]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.jsonl", None, "no such file"),
        ("pairs.txt", "id,question,text\n", "expected a .jsonl or .csv file"),
        ("pairs.csv", "id,text\na,b\n", "the header lacks question"),
        ("pairs.jsonl", b"\xff\xfe{", "not UTF-8"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_error(tmp_path, name, content, message):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    with pytest.raises(UnreadablePairs, match=message):
        read_pairs(path)


def test_judge_pairs_writes_csv_and_exits_3_for_rejected_rows(tmp_path):
    out = tmp_path / "judged.csv"
    result = runner.invoke(
        app, ["judge", "pairs", str(FIXTURES / "pairs.jsonl"), "--out", str(out)]
    )
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output
    assert "pairs.jsonl line 3: invalid JSON" in result.output
    rows = list(csv.DictReader(out.open()))
    assert [r["id"] for r in rows] == ["breach-deadline", "off-topic"]
    assert set(rows[0]) == {"id", "score", "verified", "reason", "rationale"}
    for row in rows:  # the verdict is the gate's: the threshold, then the validators
        assert row["verified"] == str(float(row["score"]) >= THRESHOLD)
    assert float(rows[0]["score"]) > float(rows[1]["score"])


def test_judge_pairs_on_good_rows_exits_0_with_jsonl(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text((FIXTURES / "pairs.jsonl").read_text().splitlines()[0] + "\n")
    out = tmp_path / "judged.jsonl"
    result = runner.invoke(app, ["judge", "pairs", str(good), "-o", str(out)])
    assert result.exit_code == 0, result.output
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["id"] == "breach-deadline"
    assert row["verified"] is (row["score"] >= THRESHOLD)
    assert re.fullmatch(
        r"(answers|does not answer) the question: score \S+ [≥<] \S+.*", row["rationale"]
    )


@pytest.mark.parametrize(
    "args",
    [
        ["judge", "pairs", "nowhere.jsonl"],
        ["judge", "pairs", str(FIXTURES / "pairs.csv"), "--out", "x.parquet"],
    ],
)
def test_judge_pairs_usage_errors_exit_2_without_a_traceback(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "error:" in result.output
