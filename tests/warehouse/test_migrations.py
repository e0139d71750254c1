"""Warehouses written by earlier commits of main (tests/fixtures/warehouses/, made by
make_fixture.sh) migrate in place: the register carried over as it was, every view answering,
`sql` and `report` working, from the directory the old run ran in and from any other; and the
next run publishes without giving an old requirement ID other words."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.warehouse.errors import WarehouseNewer, WarehouseOlder
from groundwork.warehouse.migrations import backup_path, upgraded
from groundwork.warehouse.schema import FORMAT, STEPS
from groundwork.warehouse.sqlfiles import SQL_DIR, query
from groundwork.warehouse.store import Warehouse
from tests.support.paths import FIXTURES, SAMPLE_CORPUS, SAMPLE_QUESTIONS

WAREHOUSES = FIXTURES / "warehouses"
# Each fixture's format as told by what it has (0: format 1 or older): one of every format
# before formats were recorded
TOLD = {
    "3f02a35": 0,  # views by the working directory, parts without later columns, no model tables
    "ebf1e75": 2,  # model tables; candidates and requirements without their later columns
    "e811309": 3,  # every column; views still by the working directory
    "1d22024": 4,  # views by the warehouse folder; no runs.attempts
    "ba4e6d0": 4,  # as 1d22024, with a published snapshot and comments
    "9652240": 5,  # runs.attempts; no corpus_files.meta_key
    "e997c64": 6,  # everything but the recorded format
    "48438f8": 7,  # written before hybrid retrieval and the dense gate by default
    "690e8b7": 7,  # by hybrid retrieval (30 candidates) and the gate at 0.525
    "7839b0f": 7,  # latest_* change views by subquery, a first publication's register all added
    "2ba40ad": 8,  # this format
}
# The backends each fixture of this format ran with, as its recorded configs say
RAN = {"2ba40ad": ("hybrid", "trained")}
COMMITS = sorted(p.name for p in WAREHOUSES.iterdir() if p.is_dir())
OLDER = [c for c in COMMITS if TOLD[c] < FORMAT]  # the fixtures a migration has work for
GROUNDWORK = str(Path(sys.executable).parent / "groundwork")
REGISTRY = "SELECT * FROM requirement_registry ORDER BY requirement_id"


def registry(db: Path) -> list[tuple]:
    """Every row of a warehouse's requirement_registry, every column."""
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(REGISTRY).fetchall()


def requirement_rows(folder: Path) -> list[dict]:
    """Every run's requirements as the old code wrote them (its parts' own columns)."""
    rows = []
    for part in sorted(folder.glob("tables/requirements/run_id=*/part-*.parquet")):
        rows += [{"part": part.parent.name, **r} for r in pq.read_table(part).to_pylist()]
    return rows


def old_columns(rows: list[dict], before: list[dict]) -> list[dict]:
    """`rows` cut to the columns the rows of `before` have."""
    keys = set(before[0])
    return [{k: v for k, v in r.items() if k in keys} for r in rows]


def copied(commit: str, into: Path) -> Path:
    """A copy of a fixture warehouse as `warehouse/` inside `into`, where its old run ran."""
    target = into / "warehouse"
    shutil.copytree(WAREHOUSES / commit, target)
    return target


def cli(*args: str) -> tuple[int, str]:
    """A command's exit code and output."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_every_fixture_has_its_format_and_the_steps_are_numbered_in_order():
    assert sorted(TOLD) == COMMITS
    assert [s.format for s in STEPS] == list(range(1, FORMAT + 1))
    for step in STEPS:
        assert step.change.startswith(f"Format {step.format} ")
    for path in (SQL_DIR / "migrations").glob("*.sql"):
        assert path.read_text().startswith(f"-- Format {int(path.name[:3])} ")


def test_a_new_warehouse_records_this_format(tmp_path):
    wh = Warehouse(tmp_path / "new")
    with wh.connect() as con:
        assert query(con, "warehouse/recorded_format").fetchone() == (FORMAT,)
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (0,)


@pytest.mark.parametrize("cwd", ["where it ran", "elsewhere"])
@pytest.mark.parametrize("commit", OLDER)
def test_a_warehouse_migrates_in_place_keeping_its_register(commit, cwd, tmp_path, monkeypatch):
    folder = copied(commit, tmp_path)
    before, requirements = registry(folder / "groundwork.duckdb"), requirement_rows(folder)
    assert before and requirements
    monkeypatch.chdir(tmp_path if cwd == "where it ran" else tmp_path.parent)

    code, said = cli("migrate", "--check", "-w", str(folder))
    assert code == 0, said
    said = " ".join(said.split())
    if TOLD[commit] >= 7:  # formats are recorded from format 7 on
        told = f"format {TOLD[commit]};"
    elif TOLD[commit]:
        told = f"format {TOLD[commit]} (not recorded"
    else:
        told = "format 1 or older (not recorded"
    assert told in said and "nothing was changed" in said
    assert said.count("Format ") == FORMAT - TOLD[commit]  # the steps that would run
    # the first command opens it: a reader has it migrated before it reads
    code, said = cli("sql", "SELECT count(*) AS n FROM current_requirements", "-w", str(folder))
    assert code == 0, said

    assert registry(folder / "groundwork.duckdb") == before  # IDs, quotes, history, retired
    assert old_columns(requirement_rows(folder), requirements) == requirements
    assert not backup_path(folder / "groundwork.duckdb").exists()
    with Warehouse(folder).connect(read_only=True) as con:
        assert query(con, "warehouse/recorded_format").fetchone() == (FORMAT,)
        (config,) = con.execute("SELECT config FROM runs WHERE status = 'migrated'").fetchone()
        assert f'"from_format": {TOLD[commit]}' in config
        (published,) = query(con, "runs/published").fetchone()
    with duckdb.connect(str(folder / "published.duckdb"), read_only=True) as snapshot:
        assert snapshot.execute("SELECT run_id FROM published_run").fetchone() == (published,)
    code, said = cli("migrate", "-w", str(folder))
    assert code == 0 and "nothing to migrate" in said


@pytest.mark.parametrize("commit", [c for c in COMMITS if TOLD[c] == FORMAT])
def test_a_warehouse_of_this_format_opens_as_it_is_and_its_configs_still_read(commit, tmp_path):
    """Hybrid retrieval, the dense gate, `dense_chunks` and the candidates' default changed what
    a run config says, not a table: a warehouse written before them has nothing to migrate,
    keeps its register, and every config it recorded reads as today's RunConfig with the
    backends it ran."""
    from schemas.config import RunConfig

    folder = copied(commit, tmp_path)
    before = registry(folder / "groundwork.duckdb")
    code, said = cli("migrate", "--check", "-w", str(folder))
    assert code == 0 and "nothing to migrate" in " ".join(said.split()), said
    code, said = cli("sql", "SELECT count(*) AS n FROM current_requirements", "-w", str(folder))
    assert code == 0, said
    assert registry(folder / "groundwork.duckdb") == before
    with Warehouse(folder).connect(read_only=True) as con:
        configs = [c for (c,) in con.execute("SELECT config FROM runs").fetchall()]
    ran = [RunConfig.model_validate_json(c) for c in configs]
    assert ran and {(c.retrieve, c.verify) for c in ran} == {RAN[commit]}


@pytest.mark.parametrize("commit", COMMITS)
def test_every_view_answers_and_the_report_is_written(commit, tmp_path, monkeypatch):
    folder = copied(commit, tmp_path)
    monkeypatch.chdir(tmp_path.parent)
    upgraded(Warehouse(folder))
    with Warehouse(folder).connect() as con:
        views = [
            v
            for (v,) in con.execute(
                "SELECT view_name FROM duckdb_views() WHERE NOT internal"
            ).fetchall()
        ]
    assert {"current_requirements", "requirement_register", "dashboard_requirements"} <= set(views)
    assert "dashboard_run_quality" in views and "latest_requirement_changes" in views
    with Warehouse(folder).sandboxed() as con:  # as `groundwork sql` reads them
        for view in views:
            con.execute(f'SELECT count(*) FROM "{view}"').fetchone()
    code, said = cli("report", "-w", str(folder), "-o", str(tmp_path / "report.html"))
    assert code == 0, said
    assert (tmp_path / "report.html").stat().st_size > 100_000


def test_a_first_publication_migrated_to_format_8_lists_no_latest_changes(tmp_path):
    """7839b0f's view compared its one publication with nothing: its whole register `added`."""
    folder = copied("7839b0f", tmp_path)
    before = registry(folder / "groundwork.duckdb")
    upgraded(Warehouse(folder))
    with Warehouse(folder).sandboxed() as con:
        for view in ("latest_requirement_changes", "latest_answer_changes"):
            assert con.execute(f"SELECT count(*) FROM {view}").fetchone() == (0,)
    assert registry(folder / "groundwork.duckdb") == before


def test_a_migration_cut_short_leaves_the_old_format_and_the_copy(tmp_path, monkeypatch):
    folder = copied("3f02a35", tmp_path)
    db = folder / "groundwork.duckdb"
    before = registry(db)

    def broken(*_: object) -> None:
        raise OSError("cut short")

    monkeypatch.setattr("groundwork.warehouse.migrations.refresh_views", broken)
    with pytest.raises(OSError, match="cut short"):
        upgraded(Warehouse(folder))
    assert backup_path(db).exists()
    assert registry(backup_path(db)) == before
    with duckdb.connect(str(db), read_only=True) as con:
        tables = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        assert "warehouse_format" not in tables and "model_scores" not in tables
        assert con.execute("SELECT count(*) FROM runs WHERE status = 'migrated'").fetchone() == (0,)
    monkeypatch.undo()
    upgraded(Warehouse(folder))
    assert registry(db) == before and not backup_path(db).exists()


def test_an_older_warehouse_not_migrated_is_never_read(tmp_path):
    folder = copied("1d22024", tmp_path)
    for read_only in (True, False):
        older = pytest.raises(WarehouseOlder, match="`groundwork migrate` migrates it in place")
        with older, Warehouse(folder).connect(read_only=read_only):
            pass
    assert registry(folder / "groundwork.duckdb") == registry(
        WAREHOUSES / "1d22024" / "groundwork.duckdb"
    )


def test_a_warehouse_of_a_newer_format_stops_every_command_in_one_line(tmp_path):
    folder = copied("e997c64", tmp_path)
    upgraded(Warehouse(folder))
    with Warehouse(folder).connect() as con:
        con.execute("INSERT INTO warehouse_format VALUES (?, now(), '99.0')", [FORMAT + 1])
    before = hashlib.sha256((folder / "groundwork.duckdb").read_bytes()).hexdigest()
    for args in (["sql", "SELECT 1"], ["runs"], ["migrate"], ["migrate", "--check"]):
        code, said = cli(*args, "-w", str(folder))
        assert code == 1, said
        (line,) = said.strip().splitlines()
        assert line.startswith("error: ") and f"is format {FORMAT + 1}, written by a newer" in line
    run = subprocess.run(
        [GROUNDWORK, "run", "--corpus", str(SAMPLE_CORPUS), "--warehouse", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    (line,) = [ln for ln in (run.stdout + run.stderr).splitlines() if ln.strip()]
    assert line.startswith("error: ") and "written by a newer groundwork" in line
    with pytest.raises(WarehouseNewer, match="newer groundwork"), Warehouse(folder).connect():
        pass
    assert hashlib.sha256((folder / "groundwork.duckdb").read_bytes()).hexdigest() == before


def test_a_part_truly_missing_is_still_said_in_one_line(tmp_path, monkeypatch):
    folder = copied("3f02a35", tmp_path)
    monkeypatch.chdir(tmp_path)  # where the old views' paths would have found the files
    code, said = cli("sql", "SELECT count(*) FROM current_answers", "-w", str(folder))
    assert code == 0, said
    (part,) = folder.glob("tables/answers/run_id=*/part-*.parquet")
    part.unlink()
    code, said = cli("sql", "SELECT count(*) FROM current_answers", "-w", str(folder))
    assert code == 1
    assert "is missing (deleted or moved under it)" in said and "tables/answers/run_id=" in said


@pytest.mark.slow
@pytest.mark.usefixtures("prefect_harness")
@pytest.mark.parametrize("commit", COMMITS)
def test_the_next_run_publishes_and_never_gives_an_old_id_other_words(commit, tmp_path):
    from flows.corpus import corpus_run
    from schemas.config import RunConfig

    folder = copied(commit, tmp_path)
    old = registry(folder / "groundwork.duckdb")
    summary = corpus_run(
        str(SAMPLE_CORPUS),
        str(folder),
        str(SAMPLE_QUESTIONS),
        RunConfig(workers=1, data_docs=False),
    )
    assert summary.status == "published"
    with duckdb.connect() as con:
        con.execute(f"ATTACH '{WAREHOUSES / commit / 'groundwork.duckdb'}' AS old (READ_ONLY)")
        con.execute(f"ATTACH '{folder / 'groundwork.duckdb'}' AS new (READ_ONLY)")
        lost = con.execute(
            "SELECT requirement_id, normalised_quote FROM old.requirement_registry "
            "EXCEPT SELECT requirement_id, normalised_quote FROM new.requirement_registry"
        ).fetchall()
        assert lost == []  # every old (ID, quote) still there, current or retired
        reworded = con.execute(
            "SELECT count(*) FROM old.requirement_registry o "
            "JOIN new.requirement_registry n USING (requirement_id) "
            "WHERE (n.normalised_quote, n.canonical_key, n.source_id, n.first_run) "
            "   <> (o.normalised_quote, o.canonical_key, o.source_id, o.first_run)"
        ).fetchone()
        assert reworded == (0,)
    with Warehouse(folder).connect(read_only=True) as con:
        two_wordings = con.execute(
            "SELECT requirement_id FROM requirements GROUP BY 1 HAVING count(DISTINCT exact_quote) > 1"
        ).fetchall()
        assert two_wordings == []  # across the old run and the new one
        (published,) = query(con, "runs/published").fetchone()
    assert published == summary.run_id and len(registry(folder / "groundwork.duckdb")) >= len(old)
