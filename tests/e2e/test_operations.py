"""Operations on a real warehouse: no-op reruns, resume from a stage, the change report, one run
at a time, gc, and a run killed with SIGKILL mid-stage."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.warehouse.errors import WarehouseBusy
from groundwork.warehouse.lineage import lineage_runs
from groundwork.warehouse.store import Warehouse
from tests.support.model_server import Script, scripted_server
from tests.support.paths import REPO, SAMPLE_QUESTIONS
from tests.support.runs import flow_run
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]


def task_states(flow_run_id: str) -> dict[str, str]:
    """The state name of each task run of a flow run, by task name (the last run of each)."""
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
        )
    ordered = sorted(runs, key=lambda r: r.expected_start_time or r.created)
    return {r.name.rsplit("-", 1)[0]: r.state.name for r in ordered}


@pytest.fixture
def published(corpus_copy: Path, tmp_path: Path) -> dict:
    warehouse = tmp_path / "warehouse"
    first = flow_run(corpus_copy, warehouse, SAMPLE_QUESTIONS)
    assert first.status == "published"
    return {"corpus": corpus_copy, "warehouse": warehouse, "first": first}


def test_a_rerun_over_unchanged_inputs_does_nothing(published):
    second = flow_run(published["corpus"], published["warehouse"], SAMPLE_QUESTIONS)
    assert second.status == "unchanged" and second.reused_run == published["first"].run_id
    assert second.requirements == published["first"].requirements
    history = rows(
        published["warehouse"], "SELECT status, reused_run FROM runs ORDER BY started_at"
    )
    assert history == [("published", None), ("unchanged", published["first"].run_id)]
    folders = list((published["warehouse"] / "tables" / "chunks").glob("run_id=*"))
    assert len(folders) == 1  # nothing was written


def test_changed_law_is_in_the_change_report(published):
    corpus, warehouse = published["corpus"], published["warehouse"]
    # one publication is nothing to compare: not the whole register as added
    for view in ("latest_requirement_changes", "latest_answer_changes"):
        assert rows(warehouse, f"SELECT count(*) FROM {view}") == [(0,)]
    notice = corpus / "statutes" / "us-cfr-45-164.404.md"
    notice.write_text(notice.read_text().replace("60 calendar days", "30 calendar days"))
    (corpus / "statutes" / "us-cfr-45-164.408.md").unlink()  # notification to the Secretary
    second = flow_run(corpus, warehouse, SAMPLE_QUESTIONS)
    assert second.status == "published" and second.changed_documents == 1
    result = CliRunner().invoke(app, ["diff", "-w", str(warehouse), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["run_a"], report["run_b"]) == (published["first"].run_id, second.run_id)
    changes = {(r["change"], r["doc_id"]) for r in report["requirement_changes"]}
    assert ("changed", "us-cfr-45-164.404") in changes
    assert ("retired", "us-cfr-45-164.408") in changes
    changed = [r for r in report["requirement_changes"] if r["change"] == "changed"]
    assert any("30 calendar days" in r["new_quote"] and "60" in r["old_quote"] for r in changed)
    lost = {i for r in report["answer_changes"] for i in r["no_longer_cited"]}
    retired = {r["old_id"] for r in report["requirement_changes"] if r["change"] == "retired"}
    assert lost & retired  # an answer stopped citing the Secretary requirement
    view = rows(warehouse, "SELECT count(*) FROM latest_requirement_changes")
    assert view == [(len(report["requirement_changes"]),)]
    piped = CliRunner().invoke(app, ["diff", "-w", str(warehouse)])  # Markdown when piped
    assert "no case later than ~~60~~ **30** calendar days" in piped.output
    assert "no longer cites" in piped.output and min(lost & retired) in piped.output


def test_from_stage_continues_the_run_and_earlier_stages_come_back_cached(published):
    first = published["first"]
    again = flow_run(
        published["corpus"], published["warehouse"], SAMPLE_QUESTIONS, from_stage="verify"
    )
    assert again.run_id == first.run_id and again.status == "published"
    (flow_run_id,) = rows(
        published["warehouse"], f"SELECT flow_run_id FROM runs WHERE run_id = '{first.run_id}'"
    )[0]
    states = task_states(flow_run_id)
    before = ("ingest", "chunk", "extract", "register", "questions", "retrieve")
    assert {states[s] for s in before} == {"Cached"}
    assert {states[s] for s in ("verify", "compose", "review", "publish")} == {"Completed"}
    assert again.answered == first.answered and again.requirements == first.requirements


def test_only_reruns_one_stage_and_stops(published):
    again = flow_run(published["corpus"], published["warehouse"], SAMPLE_QUESTIONS, only="extract")
    assert again.status == "partial"
    assert list(again.timings) == ["ingest", "chunk", "extract"]


def test_a_second_run_on_a_busy_warehouse_fails_at_once_and_clearly(published):
    busy = pytest.raises(WarehouseBusy, match="in use by another run \\(nightly run r1")
    with Warehouse(published["warehouse"]).run_lock("nightly run r1"), busy:
        flow_run(published["corpus"], published["warehouse"], SAMPLE_QUESTIONS, force=True)
    assert (
        flow_run(published["corpus"], published["warehouse"], SAMPLE_QUESTIONS, force=True).status
        == "published"
    )


def test_gc_removes_old_runs_but_never_the_published_one(published):
    corpus, warehouse = published["corpus"], published["warehouse"]
    for _ in range(2):
        assert flow_run(corpus, warehouse, SAMPLE_QUESTIONS, force=True).status == "published"
    newest = rows(warehouse, "SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1")[0][0]
    result = CliRunner().invoke(app, ["gc", "--keep", "1", "-w", str(warehouse)])
    assert result.exit_code == 0 and "1 run(s)" in result.output, result.output
    # the forced runs computed nothing new: the newest reads every document from the first
    first = published["first"].run_id
    assert f"kept 1 older run(s) whose parts later runs reuse: {first}" in result.output
    remaining = {p.name for p in (warehouse / "tables" / "requirements").iterdir()}
    assert remaining == {f"run_id={newest}", f"run_id={first}"}
    assert rows(warehouse, "SELECT count(*) FROM current_requirements")[0][0] > 0
    assert rows(warehouse, "SELECT count(*) FROM runs")[0][0] == 3  # history stays
    # the stages' Prefect results are in the warehouse, not in a worker's home directory
    assert len(list((warehouse / "prefect-results").iterdir())) >= 10


def test_gc_removes_the_task_results_no_kept_run_can_use(tmp_path):
    from groundwork.warehouse.gc import stale_results

    wh = Warehouse(tmp_path)
    wh.results_dir().mkdir()
    for name, mtime in (("old", 1_000.0), ("new", 3_000.0)):
        (wh.results_dir() / name).write_text("{}")
        os.utime(wh.results_dir() / name, (mtime, mtime))
    assert stale_results(wh, 2_000.0) == [wh.results_dir() / "old"]
    assert stale_results(wh, None) == []


def test_a_run_killed_mid_stage_loses_nothing_published(published, tmp_path):
    """SIGKILL while the extract stage is writing (a slow model keeps it there), then rerun.
    While the run is held there, `ask` fails in one line and the snapshot reads."""
    corpus, warehouse = published["corpus"], published["warehouse"]
    before = rows(
        warehouse, "SELECT requirement_id, exact_quote FROM current_requirements ORDER BY 1"
    )
    notice = corpus / "statutes" / "us-cfr-45-164.404.md"
    notice.write_text(notice.read_text().replace("60 calendar days", "45 calendar days"))
    with scripted_server(Script(persistent={"<passage>": "timeout"}, slow_s=1.0)) as (url, _):
        config = tmp_path / "slow-model.json"
        backend = {"base_url": url, "model": "scripted", "timeout_s": 30, "concurrency": 1}
        config.write_text(json.dumps({"extract": backend}))
        cli = [str(REPO / ".venv" / "bin" / "groundwork"), "run", "-c", str(corpus)]
        process = subprocess.Popen(
            [*cli, "-w", str(warehouse), "--config", str(config)],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while not list(warehouse.glob("tables/candidates/.staging-*")):
            assert process.poll() is None and time.monotonic() < deadline, "never reached extract"
            time.sleep(0.05)
        # during the run: `ask` stops in one line naming the run's process, and the published
        # snapshot reads as before
        asked = subprocess.run(
            [cli[0], "ask", "Who must be notified of a breach?", "-w", str(warehouse)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert asked.returncode == 1 and "Traceback" not in asked.stderr, asked.stderr
        (line,) = [ln for ln in (asked.stdout + asked.stderr).splitlines() if ln.strip()]
        assert "held open by another process" in line
        with duckdb.connect(str(warehouse / "published.duckdb"), read_only=True) as snapshot:
            (published_rows,) = snapshot.execute(
                "SELECT requirements FROM published_run"
            ).fetchone()
        assert published_rows == len(before)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    # killed: the published run is untouched and readable
    after = rows(
        warehouse, "SELECT requirement_id, exact_quote FROM current_requirements ORDER BY 1"
    )
    assert after == before
    killed = rows(warehouse, "SELECT status FROM runs ORDER BY started_at DESC LIMIT 1")
    assert killed == [("running",)]  # as the dead process left it
    # the next run marks it abandoned, cleans up, and publishes
    rerun = flow_run(corpus, warehouse, SAMPLE_QUESTIONS)
    assert rerun.status == "published"
    statuses = [s for (s,) in rows(warehouse, "SELECT status FROM runs ORDER BY started_at")]
    assert statuses == ["published", "abandoned", "published"]
    assert list(warehouse.glob("tables/*/.staging-*")) == []
    duplicates = rows(
        warehouse,
        "SELECT requirement_id FROM current_requirements GROUP BY 1 HAVING count(*) > 1",
    )
    assert duplicates == []
    failed = rows(
        warehouse,
        f"SELECT check_name FROM check_results WHERE run_id = '{rerun.run_id}' "
        "AND severity = 'hard' AND NOT passed",
    )
    assert failed == []
    quotes = [q for (q,) in rows(warehouse, "SELECT exact_quote FROM current_requirements")]
    assert any("45 calendar days" in q for q in quotes)


def test_an_incremental_run_redoes_only_changed_documents_and_equals_a_cold_run(
    published, tmp_path
):
    corpus, warehouse = published["corpus"], published["warehouse"]
    notice = corpus / "statutes" / "us-cfr-45-164.404.md"
    text = notice.read_text().replace("60 calendar days", "30 calendar days")
    # and a quote that answers cite: their questions' evidence changes
    notice.write_text(text.replace("notify each individual whose", "notify every individual whose"))
    second = flow_run(corpus, warehouse, SAMPLE_QUESTIONS)
    wh = Warehouse(warehouse)
    first = published["first"].run_id
    for table in ("chunks", "candidates", "requirements"):  # the source has one document
        fresh = pq.read_table(wh.parts(table, second.run_id)).column("doc_id")
        assert set(fresh.to_pylist()) == {"us-cfr-45-164.404"}, table
        # nothing is copied: the other documents' rows are read from the first run's parts
        assert lineage_runs(wh, table, second.run_id) == sorted([first, second.run_id]), table
        (duplicates,) = rows(
            warehouse,
            f"SELECT count(*) - count(DISTINCT (doc_id, char_start, char_end)) FROM {table} "
            f"WHERE run_id = '{second.run_id}'",
        )[0]
        assert duplicates == 0, table
    ids = "SELECT requirement_id, exact_quote FROM requirements WHERE run_id = '{}'"
    before = set(rows(warehouse, ids.format(published["first"].run_id)))
    after = set(rows(warehouse, ids.format(second.run_id)))
    assert len(after - before) == 2  # each changed quote got a new ID; every other one kept its ID
    assert all("30 calendar" in q or "every individual" in q for _, q in after - before)
    cold = flow_run(corpus, tmp_path / "cold", SAMPLE_QUESTIONS)
    for sql in (
        "SELECT * EXCLUDE (run_id) FROM current_chunks",
        "SELECT doc_id, char_start, char_end, exact_quote, modality FROM current_requirements",
        "SELECT question_id, result, verified_count FROM current_answers",
    ):
        assert sorted(rows(warehouse, sql)) == sorted(rows(tmp_path / "cold", sql)), sql
    assert cold.requirements == second.requirements
    # answers are composed again only for questions whose evidence changed
    assert 0 < second.answers_copied < second.questions
    assert cold.answers_copied == 0
    for sql in (
        # requirement IDs differ: the cold warehouse numbered its register afresh
        "SELECT question_id, regexp_replace(final_answer, 'REQ-[SP][0-9]+', '', 'g'), "
        "unsupported_claim_rate FROM current_answers",
        "SELECT statement_id, regexp_replace(text, 'REQ-[SP][0-9]+', '', 'g'), verdict "
        "FROM current_statements",
        "SELECT claim_id, verdict, action FROM current_claims",
    ):
        assert sorted(rows(warehouse, sql)) == sorted(rows(tmp_path / "cold", sql)), sql


def test_a_changed_citation_alone_redoes_the_document(published):
    """Chunk label paths come from the citation: a front-matter edit must not reuse old chunks."""
    corpus, warehouse = published["corpus"], published["warehouse"]
    notice = corpus / "statutes" / "us-cfr-45-164.404.md"
    notice.write_text(notice.read_text().replace("45 CFR § 164.404", "45 CFR § 164.499", 1))
    second = flow_run(corpus, warehouse, SAMPLE_QUESTIONS)
    paths = rows(
        warehouse,
        "SELECT DISTINCT label_path FROM current_chunks "
        "WHERE doc_id = 'us-cfr-45-164.404' AND label_path IS NOT NULL",
    )
    assert paths and all(path.startswith("164.499") for (path,) in paths)
    assert second.changed_documents == 1


def test_resuming_after_the_corpus_changed_redoes_ingest_and_what_follows(published):
    corpus, warehouse = published["corpus"], published["warehouse"]
    notice = corpus / "statutes" / "us-cfr-45-164.404.md"
    notice.write_text(notice.read_text().replace("60 calendar days", "30 calendar days"))
    again = flow_run(corpus, warehouse, SAMPLE_QUESTIONS, from_stage="publish")
    assert again.run_id == published["first"].run_id  # the same run, continued
    (flow_run_id,) = rows(
        warehouse, f"SELECT flow_run_id FROM runs WHERE run_id = '{again.run_id}'"
    )[0]
    states = task_states(flow_run_id)
    assert {states[s] for s in ("ingest", "chunk", "extract", "register")} == {"Completed"}
    quotes = [q for (q,) in rows(warehouse, "SELECT exact_quote FROM current_requirements")]
    assert any("30 calendar days" in q for q in quotes)
