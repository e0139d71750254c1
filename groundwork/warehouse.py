"""The warehouse folder: one DuckDB file for state, Parquet files per table and run.

Layout::

    <root>/groundwork.duckdb                       documents, sources, registry, runs, checks
    <root>/tables/<table>/run_id=<run>/part-*.parquet   one folder per stage output and run
    <root>/tables/<table>/run_id=<run>/lineage.parquet  per-document tables: whose parts hold what

A stage writes its parts into `tables/<table>/.staging-<run>/` and `commit` renames the folder into
place in one step, so a crash leaves only a staging folder that no view reads. Views over the
Parquet files are (re)created by `refresh_views`; `current_<table>` reads the published run only.

SQL names the Parquet files by paths relative to the warehouse folder (`tables/...`), and every
connection resolves them there (DuckDB's `file_search_path`): the views stored in the database
work from any working directory, and in a warehouse moved or copied to another folder.

The per-document tables (chunks, candidates, requirements) are not copied for documents a run
reuses. A run's parts hold the rows it computed; its `lineage.parquet` names, for every document
of the run, the run whose parts hold that document's rows (`doc_id`, `from_run`). `relation`
turns that into the run's whole table, and every reader goes through it. A run folder without a
lineage file (every other table, and runs written before lineage) is its parts alone.

A run holds the database open from start to end (`Warehouse.session`); its stages' connections
are cursors on it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.comments import apply_comments
from groundwork.failpoints import failpoint
from groundwork.sqlfiles import (
    Sql,
    literal,
    literal_sql,
    parquet_relation,
    query,
    relation_sql,
    run_script,
)

BACKGROUND = "background job"  # how a run's background jobs name themselves in the run lock
LINEAGE = "lineage.parquet"
LINEAGE_TABLES = ("chunks", "candidates", "requirements")  # rows keyed by document, reusable
PART_ROWS = 250_000  # rows per part file (PartWriter)
PARQUET_TABLES = (
    "chunks",
    "candidates",
    "requirements",
    "questions",
    "retrievals",
    "verifications",
    "answers",
    "statements",
    "citations",
    "claims",
    "claim_numbers",
    "citation_corrections",
)


# DuckDB's own memory (buffer pool, joins, sorts), beyond which it spills to
# groundwork.duckdb.tmp/. Its default, 80 % of RAM, let a cold run of the bench corpus hold
# 3.4 GB in register and review; at 1.5 GB the run's tree peaked at 2.78 and 3.07 GB in two
# runs, so 1.25 GB keeps it under 3 GB (BENCHMARKS.md, issue 24).
MEMORY_LIMIT = "1280MB"
# DuckDB's words when another process holds the file: "Conflicting lock is held in <program>
# (PID <n>) by user <u>"
_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (.+? \(PID (\d+)\))")
# How long opening the database waits while a run's background job holds it: the job's write
# connection (its Data Docs row) lasts a fraction of a second.
BACKGROUND_WAIT_S = 30.0
_NOT_A_DATABASE = "is not a valid DuckDB database file"
_NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device", in DuckDB's messages too
_MAGIC, _MAGIC_END = b"DUCK", 12  # a DuckDB file's bytes 8-12
_SESSIONS: dict[Path, duckdb.DuckDBPyConnection] = {}  # open databases, by file (Warehouse.session)


class WarehouseUnusable(Exception):
    """The warehouse cannot be opened: another process holds it, or its database is damaged.
    The CLI says so in one line."""


class WarehouseBusy(WarehouseUnusable):
    """Another run (or another process) holds the warehouse."""


class WarehouseDamaged(WarehouseUnusable):
    """groundwork.duckdb is not a DuckDB database (truncated, overwritten, not ours)."""


class WarehouseIncomplete(WarehouseUnusable):
    """A file the warehouse's tables are read from is gone: deleted or moved under it."""


class WarehouseFull(WarehouseUnusable):
    """The disk the warehouse is on is full: a write failed with ENOSPC."""


# DuckDB's words for a Parquet file or glob that is not there
_MISSING_FILE = re.compile(
    r'No files found that match the pattern "([^"]+)"|Cannot open file "([^"]+)": No such file'
)


def missing_path(message: str) -> str | None:
    """The file or glob a DuckDB error message says is not there, if it says so."""
    found = _MISSING_FILE.search(message)
    return None if found is None else found.group(1) or found.group(2)


def missing_file(exc: BaseException | None) -> WarehouseIncomplete | None:
    """The error of a query that read a file of the warehouse that is gone, said in one line
    naming the file; None for any other error."""
    path = missing_path(str(exc)) if isinstance(exc, duckdb.IOException) else None
    if path is None:
        return None
    return WarehouseIncomplete(
        f"the warehouse's {path} is missing (deleted or moved under it): restore the warehouse "
        "folder from a backup, or move it away and run again to rebuild it from the corpus"
    )


def out_of_space(exc: BaseException | None) -> WarehouseFull | None:
    """The error of a write that found the disk full, said in one line; None for any other error.

    pyarrow raises `OSError(ENOSPC)`; DuckDB raises an IOException (or, when a checkpoint fails,
    another duckdb.Error) whose message ends "No space left on device": both are looked for along
    the chain of causes."""
    seen = exc
    while seen is not None:
        if (isinstance(seen, OSError) and seen.errno == errno.ENOSPC) or (
            isinstance(seen, duckdb.Error) and _NO_SPACE in str(seen)
        ):
            detail = str(seen).splitlines()[-1] if str(seen).strip() else _NO_SPACE
            return WarehouseFull(
                f"the disk is full ({detail}): nothing was published; free space on the "
                "warehouse's disk and run again"
            )
        seen = seen.__cause__ or seen.__context__
    return None


def said_out_of_space(message: str) -> bool:
    """Whether a log line reports a failure on a full disk (Prefect's final-state line does)."""
    return _NO_SPACE in message


class NotAQuery(Exception):
    """A statement given to the query tool that is not a query."""


QUERY_STATEMENTS = ("SELECT", "EXPLAIN")  # SELECT includes DESCRIBE, SHOW, PRAGMA and WITH


def read_statements(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Nothing, or NotAQuery naming the first statement of `sql` that is not a query."""
    for statement in con.extract_statements(sql):
        if statement.type.name not in QUERY_STATEMENTS:
            said = statement.query.split(maxsplit=1)[0].upper()  # INSTALL, where DuckDB says LOAD
            raise NotAQuery(
                f"groundwork sql is read-only: it runs queries (SELECT, DESCRIBE, SHOW, EXPLAIN), "
                f"not {said}"
            )


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

        The warehouse is in this code's format first (groundwork/migrations.py): the writer
        creates a new one's schema or migrates an older one in place, and a reader of an older
        one has a writer migrate it before it reads, since its views may not read in this code
        (WarehouseNewer for one newer than this code). `as_found` leaves it as it is, for
        `groundwork migrate`."""
        from groundwork.migrations import behind, brought_up_to_date  # it imports this module

        held = _SESSIONS.get(self.db_path.absolute())
        if held is not None:
            with held.cursor() as cursor:
                yield cursor
            return
        if not read_only:
            self.root.mkdir(parents=True, exist_ok=True)
        con = self._opened(read_only, time.monotonic() + BACKGROUND_WAIT_S)
        try:
            if not as_found and not read_only:
                brought_up_to_date(con, self)
            elif not as_found and behind(con, self):
                con.close()
                with self.connect():  # the writer migrates it
                    pass
                con = self._opened(read_only, time.monotonic() + BACKGROUND_WAIT_S)
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
                job = self._background_job(int(held.group(2)))
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

    def _background_job(self, pid: int) -> str | None:
        """What the run lock says of its holder when that is a background job of this process
        ID (`run_lock` writes it there), else None."""
        try:
            held_by = (self.root / ".run.lock").read_text().strip()
        except OSError:  # no lock file: no run or job has used this warehouse
            return None
        ours = held_by.startswith(BACKGROUND) and held_by.endswith(f", pid {pid}")
        return held_by if ours else None

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
        connections paid that thirty times (about 1 s of a small incremental run). Committed
        work is in the write-ahead log meanwhile, so a killed run loses nothing committed.
        """
        with self.connect() as con:
            _SESSIONS[self.db_path.absolute()] = con
            try:
                yield
            finally:
                del _SESSIONS[self.db_path.absolute()]

    @contextmanager
    def run_lock(self, holder: str, wait: bool = False) -> Iterator[None]:
        """Exclusive right to run against this warehouse, or WarehouseBusy at once.

        An OS file lock (flock), so it is released when its process dies, SIGKILL included:
        a crashed run never leaves the warehouse locked. The second run fails rather than waits
        because DuckDB admits one writing process, and a queue of nightly runs behind a stuck
        one helps nobody; Prefect's concurrency limits are the place to queue deliberately.
        A run does wait behind a background job (a run's Data Docs: seconds), and background
        jobs (`wait=True`) wait behind runs.
        """
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / ".run.lock"
        with path.open("a+") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                held_by = handle.read().strip()
                if not (wait or held_by.startswith(BACKGROUND)):
                    raise WarehouseBusy(
                        f"warehouse {self.root} is in use by another run ({held_by}); "
                        "wait for it to finish or use another --warehouse"
                    ) from None
                fcntl.flock(handle, fcntl.LOCK_EX)
            handle.seek(0)
            handle.truncate()
            handle.write(f"{holder}, pid {os.getpid()}")
            handle.flush()
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def part_writer(self, table: str, run_id: str) -> PartWriter:
        """A writer of one table's parts for a run, committed atomically."""
        staging = self.staging_dir(table, run_id)
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        return PartWriter(staging=staging, final=self.run_dir(table, run_id))

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

    def lineage_path(self, table: str, run_id: str) -> Path:
        """Where a run's lineage of a per-document table is (it may not exist)."""
        return self.run_dir(table, run_id) / LINEAGE

    def lineage_runs(self, table: str, run_id: str) -> list[str]:
        """The runs whose parts hold a run's rows of a table: itself, and those it reuses."""
        lineage = self.lineage_path(table, run_id)
        if not lineage.exists():
            return [run_id]
        earlier = pq.read_table(lineage, columns=["from_run"]).column("from_run").unique()
        return sorted(set(earlier.to_pylist()) | {run_id})

    def sql_path(self, path: Path) -> Path:
        """A path inside the warehouse as SQL names it: relative to the warehouse folder, which
        every connection searches (see the module docstring)."""
        return path.relative_to(self.root)

    def own_relation(self, table: str, run_id: str) -> Sql:
        """The rows a run computed itself (its parts), as a relation for SQL."""
        return parquet_relation(self.sql_path(self.run_dir(table, run_id) / "part-*.parquet"))

    def relation(self, table: str, run_id: str) -> Sql:
        """A run's whole table as a relation for SQL: its parts, and for a table with a lineage
        the rows of each document from the run its lineage names."""
        lineage = self.lineage_path(table, run_id)
        if not lineage.exists():
            return self.own_relation(table, run_id)
        runs = self.lineage_runs(table, run_id)
        parts = ", ".join(
            literal(self.sql_path(self.run_dir(table, r) / "part-*.parquet")) for r in runs
        )
        return relation_sql(
            "warehouse/lineage_relation", parts=Sql(f"[{parts}]"), lineage=self.sql_path(lineage)
        )

    def committed_runs(self, table: str) -> list[str]:
        """Runs that have committed parts for a table."""
        if not self.table_dir(table).exists():
            return []
        return sorted(
            p.name.removeprefix("run_id=")
            for p in self.table_dir(table).glob("run_id=*")
            if any(p.glob("part-*.parquet"))
        )


@dataclass
class PartWriter:
    """Writes numbered Parquet parts into a staging folder; `commit` publishes them at once.

    Each table given to `write` becomes a row group, and a part takes row groups up to about
    PART_ROWS rows: a later run reading this one's rows through its lineage opens a few files,
    and a stage can still spread the row groups (whole documents each) over its workers.
    """

    staging: Path
    final: Path
    count: int = 0
    rows: int = 0
    part_rows: int = 0
    open_part: pq.ParquetWriter | None = None

    def next_path(self) -> Path:
        """The path of the next part, for writers (such as DuckDB's COPY) that write it."""
        self.close_part()
        path = self.staging / f"part-{self.count:05d}.parquet"
        self.count += 1
        return path

    @property
    def lineage_path(self) -> Path:
        """Where the table's lineage is written (see the module docstring)."""
        return self.staging / LINEAGE

    def write(self, table: pa.Table) -> None:
        """Write the table as a row group of the open part (a new part after PART_ROWS)."""
        if self.open_part is None:
            self.open_part = pq.ParquetWriter(self.next_path(), table.schema, compression="zstd")
        self.open_part.write_table(table, row_group_size=max(table.num_rows, 1))
        self.rows += table.num_rows
        self.part_rows += table.num_rows
        if self.part_rows >= PART_ROWS:
            self.close_part()

    def close_part(self) -> None:
        """Finish the open part, if any."""
        if self.open_part is not None:
            self.open_part.close()
            self.open_part, self.part_rows = None, 0

    def ensure_part(self, schema: pa.Schema) -> None:
        """Write an empty part if the run computed no rows, so that its parts are always
        readable (a run with no rows, or one that reuses every document's)."""
        if self.count == 0:
            self.write(schema.empty_table())
        self.close_part()

    def commit(self) -> Path:
        """Move the staging folder into place (replacing an earlier attempt of the same run)."""
        self.close_part()
        if self.count == 0:
            raise RuntimeError(f"nothing was written to {self.staging}")
        failpoint(f"commit:{self.staging.parent.name}")
        if self.final.exists():
            shutil.rmtree(self.final)
        os.replace(self.staging, self.final)
        return self.final


def write_run_table(warehouse: Warehouse, table: str, run_id: str, data: pa.Table) -> int:
    """Write a whole (small) table for a run as one committed part; returns its row count."""
    writer = warehouse.part_writer(table, run_id)
    writer.write(data)
    writer.commit()
    return data.num_rows


def table_rows(
    con: duckdb.DuckDBPyConnection, warehouse: Warehouse, table: str, run_id: str
) -> int:
    """The number of rows in a run's committed table (its lineage followed)."""
    sql = literal_sql("warehouse/table_rows", table=warehouse.relation(table, run_id))
    (rows,) = con.execute(sql).fetchone()
    return rows


def run_parts(warehouse: Warehouse, run_id: str, *tables: str) -> dict[str, Sql]:
    """A run's tables as relations, by table, for SQL placeholders."""
    return {t: warehouse.relation(t, run_id) for t in tables}


def _all_runs(warehouse: Warehouse, table: str) -> Sql:
    """The rows of every run of a table, with their `run_id`."""
    if table not in LINEAGE_TABLES:
        pattern = warehouse.sql_path(warehouse.table_dir(table) / "run_id=*" / "part-*.parquet")
        return relation_sql("warehouse/hive_rows", pattern=pattern)
    return Sql(
        "\nUNION ALL BY NAME\n".join(
            relation_sql(
                "warehouse/run_rows", run_id=run_id, rows=warehouse.relation(table, run_id)
            )
            for run_id in warehouse.committed_runs(table)
        )
    )


def refresh_views(con: duckdb.DuckDBPyConnection, warehouse: Warehouse) -> None:
    """(Re)create `<table>` (all runs) and `current_<table>` (published run) views over Parquet."""
    published = dict(query(con, "warehouse/published_runs").fetchall())
    for table in PARQUET_TABLES:
        if warehouse.committed_runs(table):
            run_script(
                con, "warehouse/all_runs_view", table=Sql(table), rows=_all_runs(warehouse, table)
            )
        if table in published:
            run_id = published[table]
            run_script(
                con,
                "warehouse/current_view",
                table=Sql(table),
                run_id=run_id,
                rows=warehouse.relation(table, run_id),
            )
    run_script(con, "views/register")
    run_script(con, "views/dashboard_run_failures")
    if "answers" in published:
        run_script(con, "views/audit_trail")
        run_script(con, "views/dashboard_requirements")
        run_script(con, "views/dashboard_answers_by_topic")
    if all(warehouse.committed_runs(t) for t in ("requirements", "answers", "citations")):
        run_script(con, "views/changes")
    if "verdict" in _columns(con, "statements"):  # absent from warehouses older than verdicts
        run_script(con, "views/dashboard_run_quality")
    if all(warehouse.committed_runs(t) for t in ("claims", "citation_corrections")):
        run_script(con, "views/dashboard_claim_quality")
    apply_comments(con)


def _columns(con: duckdb.DuckDBPyConnection, relation: str) -> set[str]:
    """The column names of a table or view, none if it does not exist."""
    return {name for (name,) in query(con, "warehouse/columns", {"name": relation}).fetchall()}
