"""`groundwork sql` is sandboxed: a query reads the warehouse's own files and nothing else, and
writes nothing; every documented view still works through it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from tests.support.warehouses import DASHBOARD_VIEWS

pytestmark = [pytest.mark.slow]
runner = CliRunner()


def _sql(warehouse, statement: str):
    return runner.invoke(app, ["sql", "-w", str(warehouse), "-f", "csv", statement])


@pytest.mark.parametrize(
    ("statement", "says"),
    [
        ("SELECT * FROM read_text('/etc/passwd')", 'Cannot access file "/etc/passwd"'),
        ("SELECT * FROM read_csv('tables/../../../../../etc/passwd')", "Cannot access file"),
        ("COPY (SELECT 1) TO '{tmp}/x.csv'", "not COPY"),
        ("COPY (SELECT 1) TO '{warehouse}/tables/x.csv'", "not COPY"),
        ("ATTACH '{tmp}/other.duckdb'", "not ATTACH"),
        ("INSTALL httpfs", "not INSTALL"),
        ("LOAD httpfs", "not LOAD"),
        ("SET enable_external_access = true", "not SET"),
        ("SELECT 1; COPY (SELECT 1) TO '{tmp}/y.csv'", "not COPY"),
        ("CREATE TABLE t AS SELECT 1", "not CREATE"),
    ],
)
def test_what_is_not_a_query_of_the_warehouse_fails_with_one_clear_line(
    published_sample, tmp_path, statement, says
):
    warehouse, _ = published_sample
    result = _sql(warehouse, statement.format(tmp=tmp_path, warehouse=warehouse))
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and says in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
    assert not (warehouse / "tables" / "x.csv").exists()


def test_a_query_that_reads_a_file_the_warehouse_does_not_hold_fails_even_after_a_select(
    published_sample,
):
    warehouse, _ = published_sample
    result = _sql(warehouse, "SELECT 1 UNION ALL SELECT count(*) FROM read_text('/etc/hostname')")
    assert result.exit_code == 1 and "Cannot access file" in result.output


@pytest.mark.parametrize("view", DASHBOARD_VIEWS)
def test_every_documented_view_works_in_the_sandbox(published_sample, view):
    warehouse, _ = published_sample
    result = _sql(warehouse, f"SELECT count(*) AS n FROM {view}")
    assert result.exit_code == 0, result.output


def test_current_tables_and_their_parquet_files_are_readable(published_sample):
    warehouse, summary = published_sample
    result = _sql(warehouse, "SELECT count(*) AS n FROM current_requirements")
    assert result.exit_code == 0 and result.output.splitlines() == ["n", str(summary.requirements)]
    direct = _sql(
        warehouse, "SELECT count(*) > 0 AS some FROM read_parquet('tables/chunks/*/part-*.parquet')"
    )
    assert direct.exit_code == 0 and direct.output.splitlines() == ["some", "True"]
