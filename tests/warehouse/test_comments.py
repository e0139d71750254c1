"""Every table, view and column of groundwork.duckdb is described where a BI tool looks (its
DuckDB comment), from sql/comments.yaml; and the YAML describes what is there, nothing else."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import duckdb
import pytest

from groundwork.warehouse.comments import apply_comments, comment_statements, uncommented
from groundwork.warehouse.parquet import PARQUET_TABLES
from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse
from schemas.descriptions import descriptions
from schemas.dictionary import contracts

Shapes = dict[str, tuple[str, tuple[str, ...]]]  # relation -> (table | view, its columns)


@dataclass(frozen=True)
class Catalog:
    """What the session's published warehouse holds, read once."""

    shapes: Shapes
    undescribed: list[str]


def shapes_of(con: duckdb.DuckDBPyConnection) -> Shapes:
    """Every table and view of the connection's database: its kind and its columns in order."""
    columns = defaultdict(list)
    for _, table, column, _ in query(con, "comments/columns").fetchall():
        columns[table].append(column)
    relations = query(con, "comments/relations").fetchall()
    return {name: (kind.lower(), tuple(columns[name])) for _, name, kind, _ in relations}


def described_shapes() -> Shapes:
    """Every relation of sql/comments.yaml: its kind and the columns it lists."""
    return {r.name: (r.kind, r.columns) for r in descriptions().relations.values()}


@pytest.fixture(scope="module")
def catalog(published_sample) -> Catalog:
    folder, _ = published_sample
    with Warehouse(folder).connect(read_only=True) as con:
        return Catalog(shapes_of(con), uncommented(con))


@pytest.mark.slow
def test_every_table_view_and_column_has_a_comment(catalog: Catalog):
    assert not catalog.undescribed, (
        "without a comment in groundwork.duckdb: describe them in sql/comments.yaml (then run "
        "`make docs`), or, if they are there, recreated after refresh_views wrote the comments: "
        + ", ".join(catalog.undescribed)
    )


@pytest.mark.slow
def test_the_yaml_lists_every_relation_with_its_columns(catalog: Catalog):
    described = described_shapes()
    missing = sorted(set(catalog.shapes) - set(described))
    assert not missing, f"relations of groundwork.duckdb missing from sql/comments.yaml: {missing}"
    differ = {
        name: {"warehouse": catalog.shapes[name], "yaml": shape}
        for name, shape in described.items()
        if name in catalog.shapes and catalog.shapes[name] != shape
    }
    assert not differ, f"kind or columns (in order) differ from the warehouse's: {differ}"


@pytest.mark.slow
def test_the_yaml_describes_nothing_that_is_not_there(catalog: Catalog):
    stale = sorted(set(described_shapes()) - set(catalog.shapes))
    assert not stale, f"sql/comments.yaml describes relations groundwork.duckdb lacks: {stale}"
    used = {column for _, columns in catalog.shapes.values() for column in columns}
    unused = sorted(set(descriptions().glossary) - used)
    assert not unused, f"glossary entries no column of groundwork.duckdb has: {unused}"


def test_the_stage_tables_are_the_parquet_tables():
    assert set(descriptions().stage_tables) == set(PARQUET_TABLES)


def test_every_listed_column_is_described():
    described = descriptions()
    undescribed = [
        f"{relation.name}.{column}"
        for relation in described.relations.values()
        for column in relation.columns
        if not described.column(relation.name, column)
    ]
    assert not undescribed, f"listed without a description: {undescribed}"


def test_no_column_is_described_as_the_glossary_already_does():
    described = descriptions()
    repeated = [
        f"{relation.name}.{column}"
        for relation in described.relations.values()
        for column, text in relation.own.items()
        if described.glossary.get(column) == text
    ]
    assert not repeated, f"give these no description of their own (the glossary's): {repeated}"


def test_every_contract_column_is_described():
    undescribed = [
        f"{contract.table}.{column}"
        for contract in contracts()
        for column in contract.schema.columns
        if not descriptions().column(contract.table, column)
    ]
    assert not undescribed, f"contract columns without a description: {undescribed}"


def test_a_description_with_a_quote_is_applied_as_written():
    con = duckdb.connect()
    con.execute("CREATE TABLE runs (run_id VARCHAR, status VARCHAR)")
    con.execute("CREATE VIEW current_requirements AS SELECT 'x' AS exact_quote")
    apply_comments(con)
    (run_id,) = con.execute(
        "SELECT comment FROM duckdb_columns() WHERE table_name = 'runs' AND column_name = 'run_id'"
    ).fetchone()
    assert "'" in run_id and run_id == descriptions().column("runs", "run_id")
    (view,) = con.execute(
        "SELECT comment FROM duckdb_views() WHERE view_name = 'current_requirements'"
    ).fetchone()
    assert view == descriptions().relations["current_requirements"].description
    assert view.endswith("Rows of the published run only.")
    assert uncommented(con) == []
    assert comment_statements(con) == []  # nothing left to change: a second refresh is cheap


def test_what_the_yaml_does_not_describe_is_reported():
    con = duckdb.connect()
    con.execute("CREATE TABLE runs (run_id VARCHAR, not_in_the_yaml INTEGER)")
    con.execute("CREATE VIEW nowhere_described AS SELECT 1 AS anything")
    con.execute("CREATE TEMP VIEW run_scratch AS SELECT 1 AS anything")  # not in the database
    apply_comments(con)
    assert uncommented(con) == [
        "nowhere_described",
        "nowhere_described.anything",
        "runs.not_in_the_yaml",
    ]
