"""Why a warehouse cannot be used, in one line each: held by another process, damaged, missing
a file its tables are read from, or on a full disk. The CLI prints these and exits 1."""

from __future__ import annotations

import errno
import os
import re

import duckdb

_NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device", in DuckDB's messages too


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


class WarehouseNewer(WarehouseUnusable):
    """The warehouse was written by a newer groundwork, in a format this one does not know."""


class WarehouseOlder(WarehouseUnusable):
    """The warehouse is of an older format: `groundwork migrate` (or any groundwork command)
    migrates it (groundwork/warehouse/migrations.py)."""


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
