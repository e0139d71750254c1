"""What changed from one run to another (sql/views/changes.sql's table macros), as relations:
for `groundwork diff` and a report's changes.md, and, made once, for a publication.

A publication compares itself with the run published before it twice: in its changes.md and in
its snapshot's `latest_*` tables, and the requirements' comparison reads both runs' whole
requirement tables. `kept_comparisons` makes each once, as a temporary table both read.
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb

from groundwork.warehouse.sqlfiles import Sql, query, relation_sql, run_script

# the table macros, each also a `latest_<name>` view of the two latest published runs
COMPARISONS = ("requirement_changes", "answer_changes")


def compared_runs(name: str, run_a: str, run_b: str) -> Sql:
    """Comparison `name` (one of COMPARISONS) from run_a to run_b, as a relation for
    sql/diff/<name>.sql."""
    return Sql(f"({relation_sql('diff/compared', macro=Sql(name), run_a=run_a, run_b=run_b)})")


def changed_rows(
    con: duckdb.DuckDBPyConnection,
    run_a: str,
    run_b: str,
    kept: Mapping[str, Sql] | None = None,
) -> dict[str, tuple[list[str], list[tuple]]]:
    """Each comparison from run_a to run_b, by name, as its column names and its rows in the
    order `groundwork diff` shows them (sql/diff/<name>.sql): from the rows a publication kept
    of the same two runs (`kept`, by the view each stands for: `kept_comparisons`), else
    compared here."""
    found = {}
    for name in COMPARISONS:
        rows = (kept or {}).get(f"latest_{name}") or compared_runs(name, run_a, run_b)
        cursor = query(con, f"diff/{name}", changes=rows)
        found[name] = ([d[0] for d in cursor.description], cursor.fetchall())
    return found


def kept_comparisons(con: duckdb.DuckDBPyConnection) -> dict[str, Sql]:
    """Each comparison's `latest_<name>` view (the run just published against the one before)
    kept as a temporary table of this connection, by the view's name; none for a view the
    warehouse does not have yet."""
    present = {name for _, name, _, _ in query(con, "comments/relations").fetchall()}
    kept = {}
    for view in (f"latest_{name}" for name in COMPARISONS):
        if view in present:
            run_script(con, "diff/keep_latest", view=Sql(view))
            kept[view] = Sql(f"kept_{view}")
    return kept
