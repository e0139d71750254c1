"""What a run shows of itself in the Prefect UI, on a tiny summary (the API side is in
tests/e2e/test_prefect_server.py)."""

from __future__ import annotations

from pathlib import Path

from groundwork.run_artifacts import (
    outcome_tags,
    rejection_rows,
    run_tags,
    stage_rows,
    summary_markdown,
)
from schemas.run_summary import RunSummary

SUMMARY = RunSummary(
    run_id="r1",
    status="published",
    warehouse="/data/wh",
    files=3,
    documents=2,
    changed_documents=2,
    rejected=1,
    chunks=4,
    requirements=5,
    new_ids=5,
    retired_ids=0,
    failed_checks=[],
    timings={"ingest": 1.0, "publish": 3.0},
)
REJECTED = [{"path": "bad|name.md", "record": None, "reason": "empty", "detail": "x " * 400}]


def test_the_summary_says_what_was_produced_rejected_and_where():
    text = summary_markdown(SUMMARY, REJECTED)
    assert text.startswith("# groundwork run r1: PUBLISHED")
    assert "| requirements | 5 (5 new IDs, 0 retired) |" in text
    assert "- `bad|name.md`: **empty**: " in text
    assert "/data/wh/reports/r1/report.html" in text and "/data/wh/published.duckdb" in text


def test_a_long_list_of_rejections_is_cut_and_counted():
    many = [{**REJECTED[0], "path": f"f{i}.md"} for i in range(60)]
    assert "… and 10 more (the rejections table)" in summary_markdown(SUMMARY, many)


def test_a_failed_run_names_its_checks_and_no_outputs():
    failed = SUMMARY.model_copy(update={"status": "failed", "failed_checks": ["citations_valid"]})
    text = summary_markdown(failed, [])
    assert "- `citations_valid`" in text and "report.html" not in text


def test_tables_and_tags():
    assert stage_rows(SUMMARY) == [
        {"stage": "ingest", "seconds": 1.0, "share": "25%"},
        {"stage": "publish", "seconds": 3.0, "share": "75%"},
    ]
    (row,) = rejection_rows(REJECTED)
    assert row["detail"].endswith("…") and len(row["detail"]) == 300
    assert outcome_tags(SUMMARY) == ["outcome:published", "with-rejections"]
    assert run_tags(Path("/x/corpus"), None) == ["corpus:corpus", "profile:default"]
