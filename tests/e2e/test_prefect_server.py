"""Deploy to a real `prefect server start` on localhost, run on a process worker, fail a stage on
purpose, retry the flow run through the API, and see the finished stages come back cached.

Everything goes through Prefect's own CLI and REST API in subprocesses, as an operator would:
the server, `prefect deploy` of this repository's prefect.yaml, `prefect deployment run`,
`prefect worker start --run-once` and `prefect flow-run retry`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from groundwork.runtime.failpoints import VARIABLE
from tests.support.paths import REPO, SAMPLE_CORPUS
from tests.support.servers import free_port, wait_until_answering
from tests.support.warehouses import rows

pytestmark = pytest.mark.slow
PREFECT = str(REPO / ".venv" / "bin" / "prefect")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _started(command: list[str], env: dict, log: Path) -> tuple[subprocess.Popen, IO[str]]:
    """A long-running Prefect process (a server, a worker) in its own session, from the
    repository root, its output in `log`; the process and the open log."""
    out = log.open("w")
    process = subprocess.Popen(
        command, env=env, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    return process, out


def _stopped(worker: subprocess.Popen) -> None:
    """Stop a Prefect worker: SIGTERM, then SIGKILL after 60 s. Its graceful shutdown is
    Prefect's, not under test here; once, in a full CI run, a worker whose two runs had both
    completed did not exit within 60 s of SIGTERM."""
    worker.terminate()
    try:
        worker.wait(timeout=60)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A Prefect server with its own home and database; yields the environment to reach it."""
    home = tmp_path_factory.mktemp("prefect-home")
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")},
        "PREFECT_HOME": str(home),
        "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_UI_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "GROUNDWORK_QUEUE": "on",  # the suite turns it off (conftest.py); this module tests it
    }
    process, log = _started(
        [PREFECT, "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env,
        home / "server.log",
    )
    try:
        wait_until_answering(
            "prefect server", f"{env['PREFECT_API_URL']}/health", process, home / "server.log"
        )
        yield env
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def prefect(env: dict, *args: str) -> str:
    done = subprocess.run(
        [PREFECT, *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"prefect {' '.join(args)}: {done.stdout}\n{done.stderr}"
    return done.stdout


def api(env: dict, path: str, body: dict | None = None) -> dict | list:
    request = urllib.request.Request(
        f"{env['PREFECT_API_URL']}{path}",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"},
        method="POST" if body is not None else "GET",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def finished_state(env: dict, flow_run_id: str, failpoint: str | None = None) -> str:
    """Run the worker until the flow run is final; its state type. A failpoint
    (groundwork/runtime/failpoints.py) in the worker's environment reaches the flow run's process."""
    deadline = time.monotonic() + 300
    worker_env = {**env, VARIABLE: failpoint} if failpoint else env
    while time.monotonic() < deadline:
        prefect(worker_env, "worker", "start", "--pool", "groundwork", "--run-once")
        state = api(env, f"/flow_runs/{flow_run_id}")["state"]["type"]
        if state in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED"):
            return state
        time.sleep(1)
    raise AssertionError(f"flow run {flow_run_id} did not finish")


def task_states(env: dict, flow_run_id: str) -> dict[str, str]:
    """The state name of the latest task run of each stage of a flow run."""
    runs = api(env, "/task_runs/filter", {"flow_runs": {"id": {"any_": [flow_run_id]}}})
    latest: dict[str, dict] = {}
    for run in sorted(runs, key=lambda r: r["created"]):
        latest[run["name"].rsplit("-", 1)[0]] = run
    return {name: run["state"]["name"] for name, run in latest.items()}


def test_retry_through_the_api_reruns_only_the_failed_stage_and_after(server, tmp_path):
    warehouse, questions = tmp_path / "warehouse", REPO / "data" / "questions.yaml"
    prefect(server, "work-pool", "create", "groundwork", "--type", "process", "--overwrite")
    prefect(server, "--no-prompt", "deploy", "--name", "ad-hoc-questions")
    output = prefect(
        server,
        "deployment",
        "run",
        "groundwork-corpus/ad-hoc-questions",
        "--param",
        f"corpus={SAMPLE_CORPUS}",
        "--param",
        f"warehouse={warehouse}",
        "--param",
        f"questions={questions}",
    )
    flow_run_id = UUID.search(output).group(0)
    assert finished_state(server, flow_run_id, failpoint="fail:commit:questions") == "FAILED"
    first = task_states(server, flow_run_id)
    assert first["questions"] == "Failed"
    assert all(first[s] == "Completed" for s in ("ingest", "chunk", "extract", "register"))
    assert "retrieve" not in first

    ((status, error),) = rows(warehouse, "SELECT status, error FROM runs")
    assert status == "failed" and "failpoint commit:questions" in error
    prefect(server, "flow-run", "retry", flow_run_id)
    assert finished_state(server, flow_run_id) == "COMPLETED"
    states = task_states(server, flow_run_id)
    assert {states[s] for s in ("ingest", "chunk", "extract", "register")} == {"Cached"}
    ran = ("questions", "retrieve", "verify", "compose", "review", "publish")
    assert {states[s] for s in ran} == {"Completed"}
    history = rows(warehouse, "SELECT flow_run_id, status, error FROM runs")
    assert history == [(flow_run_id, "published", None)]  # one run, continued, not a second one
    # ...and its failed first attempt is kept with it
    ((attempts,),) = rows(warehouse, "SELECT attempts FROM runs")
    (attempt,) = json.loads(attempts)
    assert attempt["status"] == "failed" and "failpoint commit:questions" in attempt["error"]
    assert rows(warehouse, "SELECT count(*) FROM current_answers")[0][0] == 85


def _triggered(env: dict, deployment: str, **params: str) -> str:
    """Trigger a deployment run with these parameters; its flow-run ID."""
    args = [a for k, v in params.items() for a in ("--param", f"{k}={v}")]
    return UUID.search(prefect(env, "deployment", "run", f"groundwork-corpus/{deployment}", *args))[
        0
    ]


def test_a_run_shows_its_summary_logs_name_and_tags_in_the_api(server, tmp_path):
    """What the UI shows of a run, read through the API: its artifacts, groundwork's own log
    lines, the run ID as the flow run's name, and tags that mark rejections."""
    corpus, warehouse = tmp_path / "corpus", tmp_path / "warehouse"
    corpus.mkdir()
    for name in ("us-cfr-45-164.404.md", "us-cfr-45-164.410.md"):
        (corpus / name).write_text((SAMPLE_CORPUS / "statutes" / name).read_text())
    (corpus / "empty.md").write_text("")
    prefect(server, "work-pool", "create", "groundwork", "--type", "process", "--overwrite")
    prefect(server, "--no-prompt", "deploy", "--name", "ad-hoc-questions")
    questions = REPO / "data" / "questions.yaml"
    flow_run_id = _triggered(
        server, "ad-hoc-questions", corpus=corpus, warehouse=warehouse, questions=questions
    )
    assert finished_state(server, flow_run_id) == "COMPLETED"
    ((run_id,),) = rows(warehouse, "SELECT run_id FROM runs")
    flow_run = api(server, f"/flow_runs/{flow_run_id}")
    assert flow_run["name"] == run_id
    assert {"corpus:corpus", "profile:default", "outcome:published", "with-rejections"} <= set(
        flow_run["tags"]
    )
    artifacts = api(server, "/artifacts/filter", {"flow_runs": {"id": {"any_": [flow_run_id]}}})
    by_key = {a["key"]: a for a in artifacts}
    assert {"groundwork-run-summary", "groundwork-stage-timings", "groundwork-rejections"} <= set(
        by_key
    )
    summary = by_key["groundwork-run-summary"]["data"]
    assert run_id in summary and "empty.md" in summary and "report.html" in summary
    rejected = json.loads(by_key["groundwork-rejections"]["data"])
    assert [(r["path"], r["reason"]) for r in rejected] == [("empty.md", "empty")]
    logs = api(server, "/logs/filter", {"logs": {"flow_run_id": {"any_": [flow_run_id]}}})
    ours = [entry["message"] for entry in logs if entry["name"] == "groundwork"]
    assert any("rejected empty.md: empty" in message for message in ours), ours


def test_two_deployments_on_one_warehouse_queue_and_both_complete(server, tmp_path):
    """Each deployment's concurrency_limit is its own; the warehouse's global limit makes the
    second run wait for the first instead of failing at the run lock."""
    warehouse = tmp_path / "warehouse"
    prefect(server, "work-pool", "create", "groundwork", "--type", "process", "--overwrite")
    prefect(server, "--no-prompt", "deploy", "--all")
    small = tmp_path / "small.yaml"
    small.write_text(
        "questions:\n  - question_id: Q1\n    question: Who must be notified of a breach?\n"
    )
    runs = [
        _triggered(server, "nightly-corpus", corpus=SAMPLE_CORPUS, warehouse=warehouse),
        _triggered(
            server, "ad-hoc-questions", corpus=SAMPLE_CORPUS, warehouse=warehouse, questions=small
        ),
    ]
    worker, log = _started(
        [PREFECT, "worker", "start", "--pool", "groundwork"], server, tmp_path / "worker.log"
    )
    try:
        deadline = time.monotonic() + 400
        states: dict[str, str] = {}
        while time.monotonic() < deadline and len(states) < 2:
            for run in runs:
                state = api(server, f"/flow_runs/{run}")["state"]["type"]
                if state in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED"):
                    states[run] = state
            time.sleep(2)
    finally:
        _stopped(worker)
        log.close()
    assert states == {run: "COMPLETED" for run in runs}, (tmp_path / "worker.log").read_text()
    spans = rows(warehouse, "SELECT started_at, finished_at, status FROM runs ORDER BY started_at")
    said = f"{spans}\n{(tmp_path / 'worker.log').read_text()[-4000:]}"
    assert [status for *_, status in spans] == ["published", "published"], said
    assert spans[0][1] <= spans[1][0], said  # one after the other
