"""The fault suite: a run killed with SIGKILL in each stage in turn, a gc killed part way, and a
full disk (a real tmpfs where the kernel lets a user mount one, and ENOSPC injected at each kind
of write), each followed by the next run or gc: what was published is intact, nothing is half
published, no staging or set-aside folder is left, no lock is stale, no row is duplicated.

The kills land at named points (groundwork/runtime/failpoints.py): on a three-document corpus a stage
lasts milliseconds, and a kill timed from outside would land between stages, not in one.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import duckdb
import pytest

from groundwork.runtime.failpoints import VARIABLE
from groundwork.warehouse.gc import collection
from groundwork.warehouse.snapshot import snapshot_path
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from tests.support.paths import REPO, SAMPLE_CORPUS
from tests.support.runs import QUIET, flow_run
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
CLI = str(REPO / ".venv" / "bin" / "groundwork")
DOCUMENTS = ("us-cfr-45-164.404.md", "us-cfr-45-164.408.md", "us-cfr-45-164.410.md")
QUESTIONS = """questions:
  - question_id: Q1
    question: "When must a covered entity notify individuals of a breach?"
  - question_id: Q2
    question: "What must the FTC Safeguards Rule program include?"
"""
CHANGE = ("60 calendar days", "45 calendar days")  # the edit that makes the next run do work
# One point in each stage (the stage's output written, not yet in place), and in publish the
# point after the publication is committed, before its reports and snapshot are.
STAGE_POINTS = {
    "ingest": "ingest",
    "chunk": "commit:chunks",
    "extract": "commit:candidates",
    "register": "commit:requirements",
    "questions": "commit:questions",
    "retrieve": "commit:retrievals",
    "verify": "commit:verifications",
    "compose": "commit:answers",
    "review": "review",
    "publish": "publish",
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, prefect_harness) -> dict:
    """A published run of three documents and two questions, copied by each test."""
    root = tmp_path_factory.mktemp("faults")
    corpus = root / "corpus"
    corpus.mkdir()
    for name in DOCUMENTS:
        shutil.copy(SAMPLE_CORPUS / "statutes" / name, corpus / name)
    (root / "questions.yaml").write_text(QUESTIONS)
    (root / "config.json").write_text(json.dumps({"workers": 1, "data_docs": False}))
    first = flow_run(corpus, root / "warehouse", root / "questions.yaml")
    assert first.status == "published"
    return {"root": root, "run": first.run_id}


@pytest.fixture
def fault(base: dict, tmp_path: Path) -> dict:
    """A copy of the base run's corpus and warehouse, with one document changed since."""
    corpus, warehouse = tmp_path / "corpus", tmp_path / "warehouse"
    shutil.copytree(base["root"] / "corpus", corpus)
    shutil.copytree(base["root"] / "warehouse", warehouse)
    notice = corpus / DOCUMENTS[0]
    notice.write_text(notice.read_text().replace(*CHANGE))
    return {
        "corpus": corpus,
        "warehouse": warehouse,
        "questions": base["root"] / "questions.yaml",
        "config": base["root"] / "config.json",
        "first": base["run"],
        "before": register(warehouse),
    }


def register(warehouse: Path) -> list[tuple]:
    """The published register: every requirement ID and its quote."""
    return rows(
        warehouse, "SELECT requirement_id, exact_quote FROM current_requirements ORDER BY 1"
    )


def snapshot_run(warehouse: Path) -> tuple[str, int]:
    """The run published.duckdb holds and its requirement count, as a dashboard reads them."""
    with duckdb.connect(str(snapshot_path(Warehouse(warehouse))), read_only=True) as snapshot:
        return snapshot.execute("SELECT run_id, requirements FROM published_run").fetchone()


def statuses(warehouse: Path) -> list[str]:
    return [s for (s,) in rows(warehouse, "SELECT status FROM runs ORDER BY started_at")]


def cli(case: dict, *args: str, failpoint: str | None = None) -> subprocess.CompletedProcess:
    """A groundwork command in its own process group, as a shell job or a scheduler runs it."""
    from prefect.settings import PREFECT_API_URL

    env = {**os.environ, "PREFECT_API_URL": PREFECT_API_URL.value() or ""}  # the harness's
    env.pop(VARIABLE, None)
    if failpoint:
        env[VARIABLE] = failpoint
    return subprocess.run(
        [CLI, *args, "-w", str(case["warehouse"])],
        capture_output=True,
        text=True,
        env=env,
        start_new_session=True,
        timeout=300,
    )


def run_cli(case: dict, failpoint: str | None = None) -> subprocess.CompletedProcess:
    return cli(
        case,
        "run",
        "-c",
        str(case["corpus"]),
        "-q",
        str(case["questions"]),
        "--config",
        str(case["config"]),
        failpoint=failpoint,
    )


def rerun(case: dict):
    return flow_run(case["corpus"], case["warehouse"], case["questions"])


def assert_whole(case: dict, published_run: str) -> None:
    """One run published whole: the views, the snapshot and the runs table agree, and nothing
    half-written, set aside or duplicated is left."""
    wh = Warehouse(case["warehouse"])
    assert wh.leftovers() == []
    published = rows(case["warehouse"], "SELECT DISTINCT run_id FROM current_requirements")
    assert published == [(published_run,)]
    assert snapshot_run(case["warehouse"]) == (published_run, len(register(case["warehouse"])))
    duplicated = rows(
        case["warehouse"],
        "SELECT requirement_id FROM current_requirements GROUP BY 1 HAVING count(*) > 1",
    )
    assert duplicated == []
    with wh.run_lock("test"):  # free: no process holds it, and the file does not stop anyone
        pass


@pytest.mark.parametrize("stage", list(STAGE_POINTS))
def test_a_run_killed_in_any_stage_loses_nothing_and_the_next_run_publishes(fault, stage):
    killed = run_cli(fault, failpoint=f"kill:{STAGE_POINTS[stage]}")
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    if stage == "publish":
        # killed after the publication committed: the new run is published, its reports and
        # snapshot are not yet: readers of published.duckdb still see the run before
        assert any(CHANGE[1] in q for _, q in register(fault["warehouse"]))
        assert snapshot_run(fault["warehouse"])[0] == fault["first"]
    else:
        assert register(fault["warehouse"]) == fault["before"]
        assert snapshot_run(fault["warehouse"]) == (fault["first"], len(fault["before"]))
        assert statuses(fault["warehouse"])[-1] == "running"  # as the dead process left it
    again = rerun(fault)
    assert again.status == "published"
    assert_whole(fault, again.run_id)
    if stage == "publish":
        # the killed run stays published (it was), closed by the next run, which writes the
        # reports and snapshot it never wrote and then, its counts unknown, runs afresh
        assert statuses(fault["warehouse"]) == ["published", "published", "published"]
        (error,) = rows(fault["warehouse"], "SELECT error FROM runs ORDER BY started_at")[1]
        assert "died after publishing" in error
    else:
        assert statuses(fault["warehouse"]) == ["published", "abandoned", "published"]
    assert any(CHANGE[1] in q for _, q in register(fault["warehouse"]))
    report = (fault["warehouse"] / "report.html").read_text()
    assert rows(fault["warehouse"], "SELECT run_id FROM publications LIMIT 1")[0][0] in report


@pytest.mark.parametrize("point", ["ingest", "commit:chunks", "review", "publish"])
def test_a_full_disk_fails_the_run_in_one_line_and_publishes_nothing(fault, point):
    full = run_cli(fault, failpoint=f"enospc:{point}")
    assert full.returncode == 1, full.stderr[-2000:]
    assert "Traceback" not in full.stderr
    errors = [line for line in full.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "the disk is full" in errors[0], full.stderr
    assert register(fault["warehouse"]) == fault["before"]  # publish: moved back
    (status, error) = rows(
        fault["warehouse"], "SELECT status, error FROM runs ORDER BY started_at DESC LIMIT 1"
    )[0]
    assert status == "failed" and "the disk is full" in error
    assert_whole(fault, fault["first"])
    again = rerun(fault)  # space freed: the next run publishes
    assert again.status == "published"
    assert_whole(fault, again.run_id)


def _user_namespaces() -> str | None:
    """Why a tmpfs cannot be mounted here, or None if it can."""
    if shutil.which("unshare") is None:
        return "no unshare(1)"
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "true"], capture_output=True
    )
    return probe.stderr.decode().strip() or None if probe.returncode else None


FULL_DISK = """set -u
mount -t tmpfs -o size="$SIZE" tmpfs "$MOUNT"
cp -a "$WAREHOUSE/." "$MOUNT/"
"$CLI" run -c "$CORPUS" -q "$QUESTIONS" --config "$CONFIG" -w "$MOUNT" >"$OUT" 2>"$ERR"
echo $? >"$RC"
rm -rf "$WAREHOUSE" && cp -a "$MOUNT/." "$WAREHOUSE/"
"""


@pytest.mark.skipif(_user_namespaces() is not None, reason=f"tmpfs: {_user_namespaces()}")
def test_a_run_on_a_really_full_disk_says_so_in_one_line_and_the_next_run_publishes(
    fault, tmp_path
):
    """The warehouse on a tmpfs with room for a little more than it holds: the run that needs
    more finds the disk full wherever it does, and everything above still holds."""
    from prefect.settings import PREFECT_API_URL

    used = sum(p.stat().st_size for p in fault["warehouse"].rglob("*") if p.is_file())
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    files = {name: tmp_path / name for name in ("out", "err", "rc")}
    env = {
        **os.environ,
        "PREFECT_API_URL": PREFECT_API_URL.value() or "",
        "SIZE": str(used + 1_500_000),
        "MOUNT": str(mount),
        "WAREHOUSE": str(fault["warehouse"]),
        "CLI": CLI,
        "CORPUS": str(fault["corpus"]),
        "QUESTIONS": str(fault["questions"]),
        "CONFIG": str(fault["config"]),
        **{name.upper(): str(path) for name, path in files.items()},
    }
    subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "bash", "-c", FULL_DISK],
        env=env,
        check=True,
        timeout=300,
    )
    returncode = int(files["rc"].read_text())
    stderr = files["err"].read_text()
    assert returncode == 1, stderr
    assert "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "the disk is full" in errors[0], stderr
    assert register(fault["warehouse"]) == fault["before"]
    assert statuses(fault["warehouse"])[-1] == "failed"
    assert_whole(fault, fault["first"])
    again = rerun(fault)
    assert again.status == "published"
    assert_whole(fault, again.run_id)


def test_a_gc_killed_part_way_leaves_whole_runs_and_the_next_gc_finishes(fault):
    # another config: the second run reuses none of the first's parts, so gc may collect it
    other = QUIET.model_copy(update={"top_k": QUIET.top_k - 1})
    second = flow_run(fault["corpus"], fault["warehouse"], fault["questions"], other)
    assert second.status == "published"
    killed = cli(fault, "gc", "--keep", "1", failpoint="kill:gc")
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert any(CHANGE[1] in q for _, q in register(fault["warehouse"]))  # published: intact
    done = collection(Warehouse(fault["warehouse"]), keep=1)
    assert done.removed == [fault["first"]]
    assert_whole(fault, second.run_id)
    kept = rows(fault["warehouse"], "SELECT DISTINCT run_id FROM chunks")  # all-runs view
    assert kept == [(second.run_id,)]
    collected = rows(fault["warehouse"], "SELECT run_id FROM runs WHERE collected_at IS NOT NULL")
    assert collected == [(fault["first"],)]
    asked = cli(fault, "sql", "SELECT count(*) FROM requirements")
    assert asked.returncode == 0 and "Traceback" not in asked.stderr, asked.stderr


def test_fifty_thousand_tiny_files_are_all_ingested(tmp_path):
    """Every file a document of its own: listing, fingerprint and batches hold up, and a second
    run over them has nothing to do."""
    corpus = tmp_path / "corpus"
    for i in range(50_000):
        folder = corpus / f"part-{i // 1000:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"policy-{i:05d}.md").write_text(f"Staff must lock screen {i}.\n")
    warehouse = tmp_path / "warehouse"
    first = flow_run(corpus, warehouse, config=RunConfig(data_docs=False))
    assert (first.status, first.files, first.documents, first.rejected) == (
        "published",
        50_000,
        50_000,
        0,
    )
    assert first.requirements == 50_000
    again = flow_run(corpus, warehouse, config=RunConfig(data_docs=False))
    assert again.status == "unchanged"


def test_a_huge_collection_of_bad_records_is_rejected_record_by_record(tmp_path):
    """A 100,000-record JSON collection of which two records are passages: both ingested, the
    rest rejected one row each, and the run goes on."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    records = [{"text": "no id here"} for _ in range(99_998)]
    records[500:500] = [{"id": "pass-1", "text": "Staff must wear badges."}]
    records.append({"id": "pass-2", "text": "Visitors must sign in."})
    (corpus / "passages.json").write_text(json.dumps(records))
    (corpus / "wide.json").write_text(json.dumps({f"k{i}": i for i in range(200_000)}))
    summary = flow_run(corpus, tmp_path / "warehouse")
    assert (summary.status, summary.documents) == ("published", 2)
    rejected = rows(
        tmp_path / "warehouse",
        "SELECT path, reason, count(*) FROM rejected_documents GROUP BY ALL ORDER BY 1",
    )
    assert rejected == [("passages.json", "bad_record", 99_998), ("wide.json", "bad_json", 1)]
