"""The published snapshot, `<warehouse>/published.duckdb`: what dashboards connect to.

A BI tool's connection pool holds its database open for hours, and DuckDB admits one writing
process: pointed at groundwork.duckdb, a dashboard stops the nightly run. So each publication
also writes a second, self-contained database holding the published run's tables and the views
readers use, each copied as a table of the same name (SQL written against the warehouse runs
unchanged on the snapshot), with the source's citation, title and URL joined into
`current_requirements`, every column described, and a `published_run` row giving the run and the
row count of each table.

It is written beside its final name, whole or as the one in place updated with what changed
(groundwork/warehouse/snapshot_update.py), and renamed over it (one `rename`, atomic on POSIX),
last of everything a publication writes (groundwork/warehouse/publication.py), so:
a reader that opens it gets one whole publication; a reader that holds it open keeps reading the
publication it opened (its file stays readable until it lets go) and sees the next one on its
next connection; and a run opens the file a reader holds only to read it, read-only as readers
do (a process that holds it open for writing makes the run write it whole instead), so a reader
never blocks a run.

Left out, because no dashboard needs them and on a large corpus they are most of the bytes:
document texts, chunks, extraction candidates, retrievals, and the all-runs views of stage
tables (they stay in groundwork.duckdb, for `groundwork sql`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import duckdb

from groundwork.warehouse.comments import apply_comments
from groundwork.warehouse.sqlfiles import Sql, query, relation_sql, run_script
from groundwork.warehouse.store import Warehouse

SNAPSHOT = "published.duckdb"
# Copied as they are, when the warehouse has them (a view exists once a run produced its tables).
COPIED = (
    "current_questions",
    "current_answers",
    "current_statements",
    "current_citations",
    "current_verifications",
    "current_claims",
    "current_claim_numbers",
    "current_citation_corrections",
    "current_audit_trail",
    "requirement_register",
    "latest_requirement_changes",
    "latest_answer_changes",
    "latest_rejections",
    "dashboard_requirements",
    "dashboard_answers_by_topic",
    "dashboard_run_failures",
    "dashboard_run_quality",
    "dashboard_claim_quality",
    "runs",
    "publications",
    "check_results",
    "rejected_documents",
    "rejected_questions",
    "sources",
)
# Built by their own query (sql/snapshot/<name>.sql), after the copied ones; then `published_run`
# (sql/snapshot/published_run.sql), which counts the rest.
BUILT = ("current_documents", "current_requirements")


def snapshot_path(warehouse: Warehouse) -> Path:
    """Where the published snapshot of a warehouse is."""
    return warehouse.root / SNAPSHOT


def partial_path(warehouse: Warehouse) -> Path:
    """Where a snapshot is written before it is renamed into place, cleared of what a run that
    died while writing one left there."""
    partial = snapshot_path(warehouse).with_name(f".{SNAPSHOT}.partial")
    for leftover in (partial, partial.with_name(partial.name + ".wal")):
        leftover.unlink(missing_ok=True)
    return partial


def snapshot_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The tables a snapshot holds, but `published_run`, in the order they are written: the
    copied relations the warehouse has (a view exists once a run produced its tables), then the
    built ones."""
    present = {name for _, name, _, _ in query(con, "comments/relations").fetchall()}
    return [name for name in COPIED if name in present] + list(BUILT)


def snapshot_rows(
    name: str, requirements: Sql | None = None, comparisons: Mapping[str, Sql] | None = None
) -> Sql:
    """What the snapshot's table `name` holds, as a relation of the warehouse: the relation of
    that name (or the one standing for it in `comparisons`, a publication's comparisons made
    once: groundwork/warehouse/comparisons.py), or the snapshot's own query for a built table
    (current_requirements' from `requirements`, the published requirements or some documents'
    rows of them)."""
    if name not in BUILT:
        return (comparisons or {}).get(name) or Sql(name)
    return relation_sql(
        f"snapshot/{name}", requirements=requirements or Sql("current_requirements")
    )


def built_snapshot(
    con: duckdb.DuckDBPyConnection,
    warehouse: Warehouse,
    run_id: str,
    comparisons: Mapping[str, Sql] | None = None,
) -> Path:
    """Build the snapshot of the published run `run_id` from the warehouse connection `con`
    beside its final name (`snapshot_path`), and return where: the caller renames it into place
    once everything else the publication writes is written too. `comparisons`: see
    `snapshot_rows`."""
    partial = partial_path(warehouse)
    run_script(con, "snapshot/attach", path=str(partial.absolute()))
    try:
        for name in snapshot_tables(con):
            rows = snapshot_rows(name, comparisons=comparisons)
            run_script(con, "snapshot/copy", table=Sql(name), rows=rows)
        run_script(con, "snapshot/published_run", {"run_id": run_id})
    finally:
        run_script(con, "snapshot/detach", database=Sql("published"))
    return finished_snapshot(partial)


def finished_snapshot(path: Path) -> Path:
    """A written snapshot with its tables and columns described, checkpointed: everything in the
    file itself, no .wal to go missing."""
    with duckdb.connect(str(path)) as snapshot:
        apply_comments(snapshot, snapshot=True)
        snapshot.execute("CHECKPOINT")
    return path


def stale_snapshot(warehouse: Warehouse, published_run: str) -> bool:
    """Whether the snapshot is missing, damaged or of another run than the published one.

    A snapshot another process holds open for writing (DuckDB's CLI opens files so) cannot be
    read here: it is taken as current, since renaming over it works whatever the holder does,
    and the next publication replaces it anyway."""
    path = snapshot_path(warehouse)
    if not path.exists():
        return True
    try:
        with duckdb.connect(str(path), read_only=True) as snapshot:
            row = snapshot.execute("SELECT run_id FROM published_run").fetchone()
    except duckdb.Error as exc:  # held open for writing; or damaged, or without published_run
        return "Conflicting lock" not in str(exc)
    return row is None or row[0] != published_run
