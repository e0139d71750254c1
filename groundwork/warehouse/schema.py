"""Warehouse formats: the steps from one to the next, and the format a warehouse is in.

A warehouse records its format (`warehouse_format`, since format 7); one written before that is
told by what it has (`told_format`). Each format after the first is one step: a SQL file
`sql/migrations/NNN_<what>.sql`, or a function here where SQL cannot say it (a step that depends
on what the warehouse holds). A new warehouse takes every step (`create_schema`, when it is first
opened); an older one the steps after its format, in a migration
(groundwork/warehouse/migrations.py, which also makes its views again). No step changes a row of
requirement_registry: format 1 moves an older registry's rows into the keyless table as they are.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.warehouse.comments import apply_comments
from groundwork.warehouse.errors import WarehouseNewer, WarehouseOlder
from groundwork.warehouse.sqlfiles import SQL_DIR, query, run_script, sql_text

Apply = Callable[[duckdb.DuckDBPyConnection, Path], None]  # (connection, warehouse folder)


@dataclass(frozen=True)
class Step:
    """One format: what brings a warehouse of the format before it to this one."""

    format: int
    change: str  # what it changes, as `groundwork migrate` says it
    apply: Apply


@dataclass(frozen=True)
class Found:
    """A warehouse's format as found: recorded, or told by what it has (0: format 1 or older)."""

    format: int
    recorded: bool

    def said(self) -> str:
        """The format in words, for `groundwork migrate`."""
        if self.recorded:
            return f"format {self.format}"
        told = "format 1 or older" if self.format == 0 else f"format {self.format}"
        return f"{told} (not recorded: told by its tables, columns, views and parts)"


def column_names(con: duckdb.DuckDBPyConnection, relation: str) -> set[str]:
    """The column names of a table or view, none if it does not exist."""
    return {name for (name,) in query(con, "warehouse/columns", {"name": relation}).fetchall()}


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The names of the warehouse's base tables."""
    return {name for (name,) in query(con, "warehouse/tables").fetchall()}


def _key_constraints(con: duckdb.DuckDBPyConnection, table: str) -> int:
    """How many primary-key or unique constraints `table` has (0 if there is no such table)."""
    return int(query(con, "warehouse/key_constraints", {"name": table}).fetchone()[0])


def _format_1(con: duckdb.DuckDBPyConnection, root: Path) -> None:
    """Format 1 (3f02a35, 2026-11-22): the layout of main up to 3f02a35, older ones moved to it.

    sql/ddl/warehouse.sql creates only what is missing; an older warehouse's documents table is
    split into rows and texts, and its registry's rows move as they are into the table without
    key indexes."""
    tables = _tables(con)
    keyed_registry = _key_constraints(con, "requirement_registry") > 0
    if keyed_registry:
        run_script(con, "ddl/registry_set_aside")
    run_script(con, "ddl/warehouse")
    if keyed_registry:
        run_script(con, "ddl/registry_restore")
    if "documents" in tables:
        run_script(con, "ddl/split_document_texts")
    run_script(con, "ddl/documents_view")


# The columns stage tables gained in format 3, which an older run's parts lack
_PART_COLUMNS = {
    "verifications": (
        ("score", pa.float64()),
        ("threshold", pa.float64()),
        ("model_version", pa.string()),
    ),
    "candidates": (
        ("sentence_start", pa.int64()),
        ("sentence_end", pa.int64()),
        ("long_quote", pa.bool_()),
        ("requirement_score", pa.float64()),
        ("requirement_model", pa.string()),
        ("is_requirement", pa.bool_()),
    ),
    "requirements": (
        ("sentence_start", pa.int64()),
        ("sentence_end", pa.int64()),
        ("long_quote", pa.bool_()),
        ("requirement_score", pa.float64()),
        ("requirement_model", pa.string()),
    ),
}


def _parts_short_of_columns(root: Path) -> Iterator[tuple[Path, list[pa.Field]]]:
    """Every committed part of a stage table that lacks columns of format 3, with those."""
    for table, columns in _PART_COLUMNS.items():
        for part in sorted(root.glob(f"tables/{table}/run_id=*/part-*.parquet")):
            names = set(pq.read_schema(part).names)
            missing = [pa.field(n, t) for n, t in columns if n not in names]
            if missing:
                yield part, missing


def _format_3(con: duckdb.DuckDBPyConnection, root: Path) -> None:
    """Format 3 (ebf1e75 to 1bd65a7, 2026-11-25): every run's parts have the stage tables' columns.

    Verifications gained the model's score, threshold and version; candidates and requirements
    the enclosing sentence, long_quote and the classifier's score and model. An older run's parts
    are written again with those columns, NULL (what this code reads for a run before them), and
    every other value as it was. Each part is replaced in one rename, outside the transaction,
    which cannot hold files: a migration cut short leaves parts with or without the columns,
    which read the same."""
    for part, missing in list(_parts_short_of_columns(root)):
        table = pq.read_table(part)
        for field in missing:
            table = table.append_column(field, pa.nulls(table.num_rows, field.type))
        written = part.with_name(f".{part.name}.tmp")
        pq.write_table(table, written, compression="zstd")
        os.replace(written, part)


def _format_4(con: duckdb.DuckDBPyConnection, root: Path) -> None:
    """Format 4 (1d22024, 2026-11-25): views name Parquet files relative to the warehouse folder.

    Before, they named them relative to the working directory of the run that made them, so
    another directory, or the same one after an upgrade, found them missing. Those views are
    dropped here, and the migration makes them again after its last step."""
    for (name,) in query(con, "warehouse/views_by_working_directory").fetchall():
        con.execute(f'DROP VIEW "{name}"')


_PYTHON_STEPS: dict[int, Apply] = {1: _format_1, 3: _format_3, 4: _format_4}


def _sql_step(path: Path) -> Step:
    """A step written as sql/migrations/NNN_<what>.sql: its first line says what it changes."""
    name = f"migrations/{path.stem}"
    change = sql_text(name).splitlines()[0].removeprefix("-- ")
    return Step(int(path.name[:3]), change, lambda con, _: run_script(con, name))


def _python_step(fmt: int, function: Apply) -> Step:
    """A step written here: its docstring's first line says what it changes."""
    return Step(fmt, (function.__doc__ or "").splitlines()[0], function)


STEPS: tuple[Step, ...] = tuple(
    sorted(
        [
            *(_sql_step(p) for p in (SQL_DIR / "migrations").glob("*.sql")),
            *(_python_step(f, fn) for f, fn in _PYTHON_STEPS.items()),
        ],
        key=lambda step: step.format,
    )
)
FORMAT = STEPS[-1].format  # the format this code writes


def found_format(con: duckdb.DuckDBPyConnection, root: Path) -> Found | None:
    """The warehouse's format: recorded, or told by what it has; None for a new, empty database."""
    tables = _tables(con)
    if "warehouse_format" in tables:
        return Found(query(con, "warehouse/recorded_format").fetchone()[0] or 0, recorded=True)
    if "runs" not in tables:
        return None
    return Found(told_format(con, root, tables), recorded=False)


def told_format(con: duckdb.DuckDBPyConnection, root: Path, tables: set[str]) -> int:
    """The format of a warehouse written before formats were recorded, told by the first thing
    it lacks; 0 when it lacks format 2's tables: format 1, or older (step 1 finds out)."""
    if "model_scores" not in tables:
        return 0
    if next(_parts_short_of_columns(root), None) is not None:
        return 2
    if query(con, "warehouse/views_by_working_directory").fetchone() is not None:
        return 3
    if "attempts" not in column_names(con, "runs"):
        return 4
    if "meta_key" not in column_names(con, "corpus_files"):
        return 5
    return 6


def pending(db_path: Path, found: Found) -> tuple[Step, ...]:
    """The steps that bring a warehouse of this format to `FORMAT`, in order; WarehouseNewer
    for a warehouse of a higher format."""
    if found.format > FORMAT:
        raise WarehouseNewer(
            f"{db_path} is format {found.format}, written by a newer groundwork than this one "
            f"({version('groundwork')}, which reads formats up to {FORMAT}): upgrade groundwork "
            "to use it"
        )
    return tuple(step for step in STEPS if step.format > found.format)


def apply_steps(con: duckdb.DuckDBPyConnection, root: Path, steps: tuple[Step, ...]) -> None:
    """Take the steps and record the format reached (inside the caller's transaction)."""
    for step in steps:
        step.apply(con, root)
    run_script(
        con,
        "warehouse/record_format",
        {"format": FORMAT, "groundwork_version": version("groundwork")},
    )


def checked_format(con: duckdb.DuckDBPyConnection, db_path: Path, writer: bool) -> None:
    """Nothing for a warehouse of this format; a new, empty one (opened by a `writer`) gets this
    format's schema, in one transaction. WarehouseNewer for a newer warehouse, WarehouseOlder
    for an older one, which a migration must bring up to date first."""
    found = found_format(con, db_path.parent)
    if found is None and writer:
        con.execute("BEGIN TRANSACTION")
        apply_steps(con, db_path.parent, STEPS)
        apply_comments(con)  # its tables described before any publication describes its views
        con.execute("COMMIT")
    elif found is not None and pending(db_path, found):
        raise WarehouseOlder(
            f"{db_path} is {found.said()}, older than this groundwork's format {FORMAT}: "
            "`groundwork migrate` migrates it in place (any groundwork command does so first)"
        )
