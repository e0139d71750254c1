"""`groundwork judge pairs` and `judge claims`: good rows judged by the pipeline's gate or claim
check, each malformed row one clear line with its line number, exit codes as for `run`, results
as CSV or JSONL."""

from __future__ import annotations

import csv
import json
import re

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.judging import PAIR_FIELDS, UnreadableRows, read_rows
from groundwork.models.inference import MODELS_DIR, ModelInfo
from groundwork.models.relevance import MODEL
from tests.support.paths import FIXTURES

JUDGE_ROWS = FIXTURES / "judge"
runner = CliRunner()
THRESHOLD = ModelInfo.read(MODELS_DIR / MODEL).threshold


def test_jsonl_rows_are_read_and_each_bad_line_is_named():
    pairs = read_rows(JUDGE_ROWS / "pairs.jsonl", PAIR_FIELDS)
    assert [r["id"] for r in pairs.rows] == ["breach-deadline", "off-topic"]
    reasons = {r["line"]: r["reason"] for r in pairs.rejections}
    assert set(reasons) == {3, 4, 5, 6}
    assert reasons[3].startswith("invalid JSON")
    assert reasons[4] == "empty or missing: text"
    assert reasons[5] == "not an object with id, question, text"
    assert reasons[6] == "duplicate id 'breach-deadline'"


def test_csv_rows_are_read_with_their_line_numbers():
    pairs = read_rows(JUDGE_ROWS / "pairs.csv", PAIR_FIELDS)
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
    with pytest.raises(UnreadableRows, match=message):
        read_rows(path, PAIR_FIELDS)


def test_judge_pairs_writes_csv_and_exits_3_for_rejected_rows(tmp_path):
    out = tmp_path / "judged.csv"
    result = runner.invoke(
        app, ["judge", "pairs", str(JUDGE_ROWS / "pairs.jsonl"), "--out", str(out)]
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
    good.write_text((JUDGE_ROWS / "pairs.jsonl").read_text().splitlines()[0] + "\n")
    out = tmp_path / "judged.jsonl"
    result = runner.invoke(app, ["judge", "pairs", str(good), "-o", str(out)])
    assert result.exit_code == 0, result.output
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["id"] == "breach-deadline"
    assert row["verified"] is (row["score"] >= THRESHOLD)
    assert re.fullmatch(
        r"(answers|does not answer) the question: the model reads \S+ "
        r"\(threshold \S+(, \S+ with the question's words)?(, margin \S+)?\).*",
        row["rationale"],
    )


@pytest.mark.parametrize(
    "args",
    [
        ["judge", "pairs", "nowhere.jsonl"],
        ["judge", "pairs", str(JUDGE_ROWS / "pairs.csv"), "--out", "x.parquet"],
        ["judge", "claims", str(JUDGE_ROWS / "pairs.csv")],  # no claim or evidence column
        ["judge", "claims", str(JUDGE_ROWS / "claims.jsonl"), "--out", "x.txt"],
    ],
)
def test_judge_usage_errors_exit_2_without_a_traceback(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "error:" in result.output


def test_judge_claims_gives_the_pipelines_verdicts_and_names_bad_rows(tmp_path):
    out = tmp_path / "claims.jsonl"
    result = runner.invoke(
        app, ["judge", "claims", str(JUDGE_ROWS / "claims.jsonl"), "--out", str(out)]
    )
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output
    assert "claims.jsonl line 5: empty or missing: evidence" in result.output
    assert "claims.jsonl line 6: invalid JSON" in result.output
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert {r: rows[r]["verdict"] for r in rows} == {
        "verbatim": "SUPPORTED",
        "deadline": "CONTRADICTED",
        "modality": "CONTRADICTED",
        "dropped-exception": "PARTIAL",
    }
    assert rows["verbatim"]["score"] == 1.0
    assert "deadline differs" in rows["deadline"]["reasons"]
    assert "missing qualifier" in rows["dropped-exception"]["reasons"]


def test_judge_claims_reads_csv_and_a_run_configs_claim_settings(tmp_path):
    """With `depth: light` (a run config's claim setting) a dropped exception is forgiven."""
    claims = tmp_path / "claims.csv"
    claims.write_text(
        "id,claim,evidence\n"
        'd,"A covered entity shall provide the notification.","Except as provided in '
        '§ 164.412, a covered entity shall provide the notification."\n'
    )
    light = tmp_path / "light.yaml"
    light.write_text("claims:\n  depth: light\n")
    full = runner.invoke(app, ["judge", "claims", str(claims)])
    forgiving = runner.invoke(app, ["judge", "claims", str(claims), "--config", str(light)])
    assert full.exit_code == forgiving.exit_code == 0, full.output + forgiving.output
    assert "PARTIAL" in full.stdout and "SUPPORTED" in forgiving.stdout
