"""published.duckdb: a self-contained snapshot of the published run that readers hold open while
runs publish (groundwork/warehouse/snapshot.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from groundwork.warehouse.comments import uncommented
from groundwork.warehouse.snapshot import COPIED, snapshot_path
from groundwork.warehouse.store import Warehouse
from schemas.descriptions import descriptions
from tests.support.paths import REPO, SAMPLE_QUESTIONS

READER = REPO / "tests" / "support" / "snapshot_reader.py"
POLICY = "policies/gsa-tts-handbook-general-information-and-resources--tech-policies--records-management.md"


def test_the_snapshot_holds_the_published_run_whole(published_sample) -> None:
    folder, summary = published_sample
    wh = Warehouse(folder)
    with wh.connect(read_only=True) as con:
        expected = {
            name: con.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
            for name in ("current_requirements", "current_answers", "dashboard_requirements")
        }
    with duckdb.connect(str(snapshot_path(wh)), read_only=True) as snap:
        tables = {
            name for (name,) in snap.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }
        assert (
            set(COPIED) | {"current_documents", "current_requirements", "published_run"} == tables
        )
        (run_id, requirements, answers) = snap.execute(
            "SELECT run_id, requirements, answers FROM published_run"
        ).fetchone()
        assert run_id == summary.run_id
        assert (requirements, answers) == (
            expected["current_requirements"],
            expected["current_answers"],
        )
        for name, rows in expected.items():
            assert snap.execute(f"SELECT count(*) FROM {name}").fetchone()[0] == rows
        # the source is joined in, and the status of the run is published, not running
        unnamed = snap.execute(
            "SELECT count(*) FROM current_requirements WHERE source_citation IS NULL"
        ).fetchone()[0]
        assert unnamed == 0
        status = snap.execute("SELECT status FROM runs WHERE run_id = ?", [run_id]).fetchone()
        assert status == ("published",)
        columns = {r[0] for r in snap.execute("DESCRIBE current_documents").fetchall()}
        assert "text" not in columns
        # every table and column described, the snapshot's own as sql/comments.yaml lists them
        assert uncommented(snap) == []
        for name, relation in descriptions().snapshot.items():
            listed = tuple(r[0] for r in snap.execute(f"DESCRIBE {name}").fetchall())
            assert listed == relation.columns, name
    assert not list(folder.glob(".published.duckdb*"))  # nothing half-written left beside it


def _reader(mode: str, folder: Path, stop: Path) -> subprocess.Popen:
    """A reader process of the snapshot (tests/support/snapshot_reader.py), once it is reading."""
    reader = subprocess.Popen(
        [sys.executable, str(READER), mode, str(snapshot_path(Warehouse(folder))), str(stop)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert json.loads(reader.stdout.readline()) == {"ready": True}
    return reader


def _reads(reader: subprocess.Popen) -> list[dict]:
    out, err = reader.communicate(timeout=60)
    assert reader.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_readers_in_a_loop_see_whole_runs_while_runs_publish(
    published_sample, sample_copy, corpus_copy: Path, tmp_path: Path
) -> None:
    """Two processes read published.duckdb through duckdb-engine in a loop while three runs
    publish, one with a new connection per read, one through a connection held open throughout:
    no read fails, every read sees one whole run, no run fails, the held connection keeps the
    publication it opened and a new connection sees the latest."""
    from tests.support.runs import flow_run

    folder = sample_copy
    stop = tmp_path / "stop"
    readers = {mode: _reader(mode, folder, stop) for mode in ("fresh", "held")}
    published = [published_sample[1].run_id]
    try:
        for n in range(3):
            with (corpus_copy / POLICY).open("a") as policy:
                policy.write(f"\nEvery team must review its records schedule {n + 2} times.\n")
            summary = flow_run(corpus_copy, folder, SAMPLE_QUESTIONS)
            assert summary.status == "published"
            published.append(summary.run_id)
        time.sleep(1)  # reads begun after the last publication
    finally:
        stop.touch()
        seen = {mode: _reads(reader) for mode, reader in readers.items()}
    for mode, reads in seen.items():
        failed = [r for r in reads if r["error"] or not r["whole"]]
        assert not failed, (mode, failed[:3])
    fresh = [r["run_id"] for r in seen["fresh"]]
    assert set(fresh) <= set(published) and fresh[-1] == published[-1]
    assert len(set(fresh)) >= 2, f"{len(fresh)} reads saw only {set(fresh)}"
    assert {r["run_id"] for r in seen["held"]} == {published[0]}
