"""The published snapshot updated from the one before it holds what a whole build of it holds
(groundwork/warehouse/snapshot_update.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb

from groundwork.report.write import CHANGES, written_changes
from groundwork.warehouse.comments import uncommented
from groundwork.warehouse.snapshot import built_snapshot, snapshot_path, snapshot_tables
from groundwork.warehouse.snapshot_update import (
    KEPT,
    MAX_CHANGED_SHARE,
    snapshot_changes,
    updated_snapshot,
)
from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse
from tests.support.paths import SAMPLE_QUESTIONS
from tests.support.runs import flow_run

# A process that holds a database open for writing, as DuckDB's CLI does, until killed.
HOLDER = (
    "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
    "time.sleep(300)"
)
CHANGED, CHANGED_ID = "statutes/us-cfr-45-164.404.md", "us-cfr-45-164.404"
REMOVED, REMOVED_ID = "statutes/us-cfr-45-164.302.md", "us-cfr-45-164.302"
# Added: a second document of the source of an unchanged one, with the same paragraph: it comes
# first, so the same quote in the unchanged document is now that source's second occurrence
# and gets a new ID (sql/registry/assign_ids.sql), though its text did not change.
ADDED, ADDED_ID = "statutes/companion-164.406.md", "companion-164.406"
UNCHANGED = "us-cfr-45-164.406"
PARAGRAPH = (
    "(c) Implementation specifications: Content of notification. The notification required by "
    "paragraph (a) of this section shall meet the requirements of § 164.404(c)."
)
COMPANION = f"""---
doc_id: "companion-164.406"
title: "Notification to the media: content"
citation: "45 CFR § 164.406(c)"
jurisdiction: "US-Federal"
source_type: "regulation"
source_url: "https://www.ecfr.gov/current/title-45/section-164.406"
---

# § 164.406(c) Content of notification

{PARAGRAPH}
"""


def _ordered(value: object) -> object:
    """A value with its maps' entries in key order: a MAP built from lists aggregated without
    an order (current_audit_trail.rejection_reasons) has them in any order, run to run."""
    if isinstance(value, dict):
        return sorted((key, _ordered(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return [_ordered(item) for item in value]
    return value


def _contents(path: Path) -> dict[str, tuple[list, list[str]]]:
    """Each table of a snapshot: its columns with their types, and its rows (as text, sorted:
    a table's row order is not promised)."""
    with duckdb.connect(str(path), read_only=True) as snap:
        assert uncommented(snap) == []
        names = [n for (n,) in snap.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        return {
            name: (
                snap.execute(f'DESCRIBE "{name}"').fetchall(),
                sorted(
                    repr(_ordered(row))
                    for row in snap.execute(f'SELECT * FROM "{name}"').fetchall()
                ),
            )
            for name in names
        }


def _ids(path: Path, doc_id: str) -> set[str]:
    """The requirement IDs of a document in a snapshot."""
    with duckdb.connect(str(path), read_only=True) as snap:
        sql = "SELECT requirement_id FROM current_requirements WHERE doc_id = ?"
        return {i for (i,) in snap.execute(sql, [doc_id]).fetchall()}


def test_an_updated_snapshot_holds_what_a_whole_build_holds(
    prefect_harness, corpus_copy: Path, tmp_path: Path
) -> None:
    """After a run that changed one file, removed one and added one (renumbering a fourth),
    the previous snapshot
    updated (only the changed documents' rows written again) and a whole build of the same run
    hold the same tables, columns and rows."""
    folder = tmp_path / "warehouse"
    assert flow_run(corpus_copy, folder, SAMPLE_QUESTIONS).status == "published"
    wh = Warehouse(folder)
    first = shutil.copyfile(snapshot_path(wh), tmp_path / "first.duckdb")
    with (corpus_copy / CHANGED).open("a") as changed:
        changed.write("\nA covered entity must keep a copy of each notice for six years.\n")
    (corpus_copy / REMOVED).unlink()
    (corpus_copy / ADDED).write_text(COMPANION)
    summary = flow_run(corpus_copy, folder, SAMPLE_QUESTIONS)
    assert summary.status == "published"
    published = shutil.copyfile(snapshot_path(wh), tmp_path / "published.duckdb")

    shutil.copyfile(first, snapshot_path(wh))  # the first run's snapshot, to update again
    with wh.connect() as con:
        kept = [name for name in snapshot_tables(con) if name in KEPT]
        assert set(kept) == set(KEPT)
        changes = snapshot_changes(con, wh, summary.run_id, kept)
        # the four documents, and no more than an update is made for
        assert changes is not None
        assert {CHANGED_ID, REMOVED_ID, ADDED_ID, UNCHANGED} <= set(changes.documents)
        assert len(changes.documents) <= MAX_CHANGED_SHARE * changes.active
        updated = updated_snapshot(con, wh, summary.run_id).rename(tmp_path / "updated.duckdb")
        whole = built_snapshot(con, wh, summary.run_id).rename(tmp_path / "whole.duckdb")

    expected = _contents(whole)
    assert PARAGRAPH in (corpus_copy / "statutes" / f"{UNCHANGED}.md").read_text()
    assert _ids(whole, UNCHANGED) != _ids(first, UNCHANGED)  # what only its lineage tells
    assert _contents(updated) == expected
    # the run's own publication was an update too; it was written before the run recorded its
    # end (runs, and what reads it, differ), so the tables kept from the first run's are compared
    contents = _contents(published)
    assert {name: contents[name] for name in KEPT} == {name: expected[name] for name in KEPT}
    # its comparison with the first run, made once for its changes.md and its snapshot
    # (groundwork/warehouse/comparisons.py), holds what the views give
    for name in ("latest_requirement_changes", "latest_answer_changes"):
        assert contents[name] == expected[name]
    changes = contents["latest_requirement_changes"][1]
    assert {row.split(",")[0] for row in changes} == {"['added'", "['retired'"}
    report = folder / "reports" / summary.run_id / CHANGES
    kept_report = report.read_text()
    with wh.connect(read_only=True) as con:
        previous = query(con, "report/previous_published", {"run_id": summary.run_id}).fetchone()
        assert written_changes(con, tmp_path, previous[0], summary.run_id).read_text() == (
            kept_report
        )


def test_a_snapshot_held_open_for_writing_is_built_whole(sample_copy: Path) -> None:
    """A process holding the snapshot open for writing does not stop the next one: it is built
    whole instead of updated."""
    wh = Warehouse(sample_copy)
    with wh.connect() as con:
        (run_id,) = query(con, "runs/published").fetchone()
        kept = [name for name in snapshot_tables(con) if name in KEPT]
        assert snapshot_changes(con, wh, run_id, kept) is not None
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(snapshot_path(wh))], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with wh.connect() as con:
            assert snapshot_changes(con, wh, run_id, kept) is None
            written = updated_snapshot(con, wh, run_id)
    finally:
        holder.kill()
        holder.wait()
    with duckdb.connect(str(written), read_only=True) as snap:
        assert snap.execute("SELECT run_id FROM published_run").fetchone() == (run_id,)
