"""A run's corpus listing lives in a folder of the temporary directory removed when the process
exits; one killed outright (no exit handlers) leaves it behind, and the next listing process
removes it. Real processes, killed for real, in a temporary directory of the test's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from groundwork.ingest.listing import SCRATCH_PREFIX, remove_dead_scratch

LIST_THEN = """
import os, signal, sys
from pathlib import Path
from groundwork.ingest.listing import corpus_listing
from groundwork.warehouse.store import Warehouse
corpus_listing(Path(sys.argv[1]), Warehouse(Path(sys.argv[2])))
if sys.argv[3] == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
"""


def listed(tmp_path: Path, then: str) -> subprocess.CompletedProcess:
    """List a one-file corpus in a new process with `tmp_path` as its temporary directory, then
    exit or be killed."""
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "a.md").write_text("# A\n\nThe officer shall notify the board.\n")
    return subprocess.run(
        [sys.executable, "-c", LIST_THEN, str(corpus), str(tmp_path / "wh"), then],
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )


def scratch(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob(f"{SCRATCH_PREFIX}*"))


def test_a_killed_process_leaves_its_listing_and_the_next_one_removes_it(tmp_path):
    killed = listed(tmp_path, "kill")
    assert killed.returncode == -9, killed.stderr
    (left,) = scratch(tmp_path)
    assert list(left.glob("listing-*.parquet"))
    done = listed(tmp_path, "exit")
    assert done.returncode == 0, done.stderr
    assert scratch(tmp_path) == []  # the dead one's removed, its own removed at exit


def test_a_running_process_keeps_its_folder(tmp_path):
    mine = tmp_path / f"{SCRATCH_PREFIX}{os.getpid()}-abc"
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead = tmp_path / f"{SCRATCH_PREFIX}{gone.pid}-abc"
    other = tmp_path / f"{SCRATCH_PREFIX}abc"  # not one of ours: no process ID
    for folder in (mine, dead, other):
        folder.mkdir()
    remove_dead_scratch(tmp_path)
    assert scratch(tmp_path) == sorted([mine, other])
