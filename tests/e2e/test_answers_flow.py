"""Questions end to end on data/: answers published only when every citation checks out."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

import tasks.compose
from groundwork.cli import app
from groundwork.warehouse.store import Warehouse
from tasks.publish import publish_stage
from tasks.review import review_stage
from tests.support.paths import SAMPLE_CORPUS, SAMPLE_QUESTIONS
from tests.support.runs import QUIET, flow_run
from tests.support.warehouses import rewrite, rows, tampered_run

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
INVALID_CITATIONS = """
    SELECT count(*) FROM current_statements s
    WHERE NOT EXISTS (
        SELECT 1 FROM current_citations c
        JOIN current_verifications v
          ON v.question_id = c.question_id AND v.requirement_id = c.requirement_id AND v.verified
        JOIN current_requirements r ON r.requirement_id = c.requirement_id
        WHERE c.statement_id = s.statement_id)
"""


def test_shipped_questions_are_answered_with_valid_citations(published_sample):
    warehouse, summary = published_sample
    assert summary.status == "published"
    assert summary.questions == 85 and summary.answered >= 40 and summary.no_evidence >= 8
    assert rows(warehouse, INVALID_CITATIONS) == [(0,)]
    assert rows(warehouse, "SELECT count(*) FROM current_statements") != [(0,)]
    audit = json.loads((warehouse / "audit_trail.json").read_text())
    assert len(audit) == 85 and {"pass_rate", "rejection_reasons", "cited_ids"} <= set(audit[0])
    report = (warehouse / "answers.md").read_text()
    assert "[^1]: REQ-" in report and "## Sources" in report
    no_evidence = rows(
        warehouse,
        "SELECT final_answer, missing_evidence FROM current_answers "
        "WHERE result = 'NO_AUTHORITATIVE_EVIDENCE' LIMIT 1",
    )[0]
    assert no_evidence[0].startswith("NO_AUTHORITATIVE_EVIDENCE") and no_evidence[1]


def hallucinated_id(wh: Warehouse, run_id: str) -> None:
    first = {}

    def citations(records):
        first.update(records[0])
        records[0]["requirement_id"], records[0]["marker"] = "REQ-S9999", "[REQ-S9999]"
        return records

    def answers_(records):
        for r in records:
            if r["question_id"] == first["question_id"]:
                r["final_answer"] = r["final_answer"].replace(first["marker"], "[REQ-S9999]", 1)
        return records

    rewrite(wh, "citations", run_id, citations)
    rewrite(wh, "answers", run_id, answers_)


def non_verbatim_quote(wh: Warehouse, run_id: str) -> None:
    changed = {}

    def statements(records):
        s = records[0]
        changed["old"], changed["q"] = s["text"], s["question_id"]
        inside = s["text"].index(" ", s["text"].index(': "') + 12)
        s["text"] = s["text"][:inside] + " not" + s["text"][inside:]  # "shall not notify"
        changed["new"] = s["text"]
        s["char_end"] = s["char_start"] + len(s["text"])
        return records

    def answers_(records):
        for r in records:
            if r["question_id"] == changed["q"]:
                r["final_answer"] = r["final_answer"].replace(changed["old"], changed["new"], 1)
        return records

    rewrite(wh, "statements", run_id, statements)
    rewrite(wh, "answers", run_id, answers_)


def uncited_statement(wh: Warehouse, run_id: str) -> None:
    def citations(records):
        return [r for r in records if r["statement_id"] != records[0]["statement_id"]]

    rewrite(wh, "citations", run_id, citations)


@pytest.mark.parametrize(
    ("plant", "caught_by"),
    [
        (hallucinated_id, {"citations_verified", "answer_markers_cited"}),
        (non_verbatim_quote, {"statement_quotes_verbatim"}),
        (uncited_statement, {"statements_cited"}),
    ],
)
def test_planted_fault_is_caught_and_blocks_publication(
    published_sample, tmp_path, plant, caught_by
):
    bad_run = "r99999999T000000000000Z"
    wh, good = tampered_run(published_sample[0], tmp_path, bad_run)
    plant(wh, bad_run)
    results = review_stage.fn(wh, bad_run, QUIET)
    failed = {r["check_name"] for r in results if r["severity"] == "hard" and not r["passed"]}
    assert caught_by <= failed  # each fault is caught by the check named for it (and maybe more)
    assert publish_stage.fn(wh, bad_run, results) is False
    assert rows(wh.root, "SELECT DISTINCT run_id FROM publications") == [(good,)]
    assert rows(wh.root, INVALID_CITATIONS) == [(0,)]


def test_a_failed_answer_gate_triggers_one_recomposition(monkeypatch, tmp_path: Path):
    real = tasks.compose.answers
    calls = []

    def first_one_hallucinates(*args):
        tables = real(*args)
        calls.append(1)
        citations = tables["citations"]
        if len(calls) == 1 and citations.num_rows:
            records = citations.to_pylist()
            records[0]["requirement_id"] = "REQ-S9999"
            tables["citations"] = pa.Table.from_pylist(records, schema=citations.schema)
        return tables

    monkeypatch.setattr(tasks.compose, "answers", first_one_hallucinates)
    summary = flow_run(SAMPLE_CORPUS, tmp_path / "wh", SAMPLE_QUESTIONS)
    assert len(calls) == 2 and summary.status == "published"
    counts = rows(tmp_path / "wh", "SELECT counts->>'recomposed' FROM runs")
    assert counts == [("true",)]


def test_malformed_question_rows_are_rejected_and_the_rest_answered(tmp_path: Path):
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"question_id": "ok", "question": "What must a business associate do after a breach?"}\n'
        '{"question_id": "bad"}\n'
        "not json at all\n"
    )
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--corpus",
            str(SAMPLE_CORPUS),
            "--questions",
            str(questions),
            "-w",
            str(tmp_path / "wh"),
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 3, result.output
    assert "q.jsonl line 2" in result.output and "q.jsonl line 3" in result.output
    assert rows(
        tmp_path / "wh", "SELECT line, question_id FROM rejected_questions ORDER BY line"
    ) == [(2, "bad"), (3, None)]
    assert rows(tmp_path / "wh", "SELECT question_id, result FROM current_answers") == [
        ("ok", "ANSWERED")
    ]


def test_ask_answers_from_the_published_warehouse(published_sample):
    warehouse, _ = published_sample
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "ask",
            "What must a business associate do after discovering a "
            "breach of unsecured protected health information?",
            "-w",
            str(warehouse),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "ANSWERED" in result.output and "[^1]: REQ-S" in result.output
    payload = json.loads(
        runner.invoke(
            app,
            [
                "ask",
                "Does the GDPR oblige controllers to notify "
                "the supervisory authority within 72 hours?",
                "-w",
                str(warehouse),
                "-f",
                "json",
            ],
        ).output
    )
    assert payload["result"] == "NO_AUTHORITATIVE_EVIDENCE" and payload["statements"] == []
