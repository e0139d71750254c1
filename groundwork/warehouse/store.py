"""The warehouse folder and its connections: one DuckDB file for state, Parquet files per table
and run.

Layout::

    <root>/groundwork.duckdb                       documents, sources, registry, runs, checks
    <root>/tables/<table>/run_id=<run>/part-*.parquet   one folder per stage output and run
    <root>/tables/<table>/run_id=<run>/lineage.parquet  per-document tables: whose parts hold what

Parts are written and committed by parquet.py, read through their lineage by lineage.py, and
shown as views by views.py; the run lock is locking.py, the schema schema.py.

SQL names the Parquet files by paths relative to the warehouse folder (`tables/...`), and every
connection resolves them there (DuckDB's `file_search_path`): the views stored in the database
work from any working directory, and in a warehouse moved or copied to another folder.

A run holds the database open from start to end (`Warehouse.session`); its stages' connections
are cursors on it.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb

from groundwork.warehouse import locking
from groundwork.warehouse.errors import WarehouseBusy, WarehouseDamaged
from groundwork.warehouse.schema import checked_format
from groundwork.warehouse.sqlfiles import literal

# DuckDB's own memory (buffer pool, joins, sorts), beyond which it spills to
# groundwork.duckdb.tmp/. Its default, 80 % of RAM, let a large cold run hold more than the
# machine's share in register and review; this limit keeps a run's process tree bounded
# (BENCHMARKS.md, "Memory of the process tree"). Lower, register's joins and sort spill more,
# and take longer.
MEMORY_LIMIT = "800MB"
# DuckDB's words when another process holds the file: "Conflicting lock is held in <program>
# (PID <n>) by user <u>"
_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (.+? \(PID (\d+)\))")
# How long opening the database waits while a run's background job holds it: the job's write
# connection (its Data Docs row) lasts a fraction of a second.
BACKGROUND_WAIT_S = 30.0
_NOT_A_DATABASE = "is not a valid DuckDB database file"
_MAGIC, _MAGIC_END = b"DUCK", 12  # a DuckDB file's bytes 8-12
_SESSIONS: dict[Path, duckdb.DuckDBPyConnection] = {}  # open databases, by file (Warehouse.session)


@dataclass(frozen=True)
class Warehouse:
    """Paths and connections of one warehouse folder."""

    root: Path

    @property
    def db_path(self) -> Path:
        return self.root / "groundwork.duckdb"

    def table_dir(self, table: str) -> Path:
        return self.root / "tables" / table

    def run_dir(self, table: str, run_id: str) -> Path:
        return self.table_dir(table) / f"run_id={run_id}"

    def staging_dir(self, table: str, run_id: str) -> Path:
        return self.table_dir(table) / f".staging-{run_id}"

    def exists(self) -> bool:
        return self.db_path.exists()

    def check_database(self) -> None:
        """Nothing, or WarehouseDamaged when groundwork.duckdb exists but is no DuckDB database
        (its header lacks DuckDB's magic bytes): a cheap check before any command opens it."""
        with self.db_path.open("rb") as handle:
            header = handle.read(_MAGIC_END)
        if header[_MAGIC_END - len(_MAGIC) :] != _MAGIC:
            raise self._damaged()

    def _damaged(self) -> WarehouseDamaged:
        return WarehouseDamaged(
            f"{self.db_path} is not a DuckDB database: restore it from a backup, or move it "
            "away and run again to rebuild the warehouse from the corpus"
        )

    @contextmanager
    def connect(
        self, read_only: bool = False, as_found: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A DuckDB connection, closed on exit. Inside a `session` it is a cursor on the
        session's database.

        The warehouse must be of this code's format (groundwork/warehouse/schema.py): a new
        one gets its schema from the writer; an older one stops with WarehouseOlder (every
        command migrates it first: groundwork/warehouse/migrations.py), a newer one with
        WarehouseNewer. `as_found` opens it whatever its format, for the migration."""
        held = _SESSIONS.get(self.db_path.absolute())
        if held is not None:
            with held.cursor() as cursor:
                yield cursor
            return
        if not read_only:
            self.root.mkdir(parents=True, exist_ok=True)
        con = self._opened(read_only, time.monotonic() + BACKGROUND_WAIT_S)
        try:
            if not as_found:
                checked_format(con, self.db_path, writer=not read_only)
            yield con
        finally:
            con.close()

    def _opened(self, read_only: bool, patience_end: float) -> duckdb.DuckDBPyConnection:
        """The database opened; WarehouseBusy at once when another process holds it, unless that
        is a run's background job, which holds it for a moment: that one is waited for (until
        `patience_end`), so a `groundwork sql` just after a run does not fail on it."""
        while True:
            try:
                con = duckdb.connect(
                    str(self.db_path),
                    read_only=read_only,
                    config={
                        "file_search_path": str(self.root.absolute()),
                        "memory_limit": MEMORY_LIMIT,
                    },
                )
            except duckdb.IOException as exc:
                if _NOT_A_DATABASE in str(exc):
                    raise self._damaged() from None
                held = _LOCK_HOLDER.search(str(exc))
                if held is None:
                    raise
                job = locking.background_job(self.root, int(held.group(2)))
                if job is not None and time.monotonic() < patience_end:
                    time.sleep(0.1)
                    continue
                raise WarehouseBusy(
                    f"{self.db_path} is held open by another process ({job or held.group(1)}): "
                    "a DuckDB client such as a dashboard's connection or a `duckdb` shell, or a "
                    "run; close it and try again"
                ) from None
            # DuckDB draws its own bar on stdout for a query over 2 s (the snapshot's copy of a
            # large register): it would tear the run's progress display
            con.execute("SET enable_progress_bar = false")
            return con

    @contextmanager
    def sandboxed(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection for users' queries (`groundwork sql`): they read the database
        and the warehouse's own Parquet files and nothing else, and change nothing. DuckDB's
        external access is off but for `tables/` (the views name their files relative to the
        folder), so reading /etc/passwd, COPY ... TO, ATTACH, INSTALL and LOAD fail; the
        configuration is locked, so no SET undoes that. `read_statements` keeps out statements
        that are not queries (a COPY into the warehouse's own folder)."""
        with self.connect(read_only=True) as con:
            tables = str(self.root.absolute() / "tables") + os.sep
            con.execute(f"SET allowed_directories = [{literal(tables)}, 'tables/']")
            con.execute("SET enable_external_access = false")
            con.execute("SET lock_configuration = true")
            yield con

    @contextmanager
    def session(self) -> Iterator[None]:
        """Keep the database open (read-write) until exit: every `connect` inside is a cursor on
        it. A run holds one, because closing DuckDB's last connection checkpoints the whole
        database and opening it reads its catalog again; a run of ten stages and thirty
        connections paid that thirty times, a noticeable part of a small incremental run. Committed
        work is in the write-ahead log meanwhile, so a killed run loses nothing committed.
        """
        with self.connect() as con:
            _SESSIONS[self.db_path.absolute()] = con
            try:
                yield
            finally:
                del _SESSIONS[self.db_path.absolute()]

    def run_lock(self, holder: str, wait: bool = False) -> AbstractContextManager[None]:
        """This warehouse's run lock (locking.py), held under `holder`'s name."""
        return locking.run_lock(self.root, holder, wait)

    def results_dir(self) -> Path:
        """Where a run's Prefect task results are kept (the stages' small return values): in
        the warehouse, so a retry finds them on any machine that mounts it, and `gc` cleans
        them. (Prefect's default, $PREFECT_HOME/storage, is one worker's home directory.)"""
        return self.root / "prefect-results"

    def collecting_dir(self, folder: Path) -> Path:
        """Where gc sets a run's folder aside before deleting it (no view reads it there)."""
        return folder.with_name(f".collecting-{folder.name}")

    def parts(self, table: str, run_id: str) -> list[Path]:
        """The committed part files of a table for a run (the rows it computed), in order."""
        return sorted(self.run_dir(table, run_id).glob("part-*.parquet"))

    def leftovers(self) -> list[Path]:
        """What a run or gc that died or failed mid-write left behind, which nothing reads:
        staging folders of stage tables, folders a gc set aside to delete (`.collecting-*`),
        and the half-written snapshot and reports (`.<name>.partial`, `.<name>.tmp`) beside
        their final names."""
        patterns = ("tables/*/.staging-*", "*/*/.collecting-*", "*/.collecting-*")
        patterns += (".*.partial*", ".*.tmp")
        return sorted(path for pattern in patterns for path in self.root.glob(pattern))

    def discard_leftovers(self) -> None:
        """Remove `leftovers`: a run does so when it starts, and when it fails (on a full disk,
        that frees the space it took)."""
        for path in self.leftovers():
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)

    def sql_path(self, path: Path) -> Path:
        """A path inside the warehouse as SQL names it: relative to the warehouse folder, which
        every connection searches (see the module docstring)."""
        return path.relative_to(self.root)

    def committed_runs(self, table: str) -> list[str]:
        """Runs that have committed parts for a table."""
        if not self.table_dir(table).exists():
            return []
        return sorted(
            p.name.removeprefix("run_id=")
            for p in self.table_dir(table).glob("run_id=*")
            if any(p.glob("part-*.parquet"))
        )
