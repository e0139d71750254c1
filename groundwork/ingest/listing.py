"""The corpus as a run sees it, streamed: every entry listed in path order, each file hashed by
content (or known unchanged by its size and mtime), written to a Parquet listing a batch at a
time, the entries that are not read kept with why, and the corpus's fingerprint taken as the
listing streams, so that a run on an unchanged corpus is known as such before any stage works.

The process never holds a per-file list of the whole corpus: one folder's names at a time while
walking, one batch of files, the recorded digests read in the same order as the walk, and the
skipped entries (links, FIFOs, unreadable files: few)."""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import stat as stat_module
import tempfile
import time
import uuid
import weakref
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse

LISTING_BATCH = 8192  # files listed, stat'ed and written at a time
# How long the CLI's listing stands for the flow's (`recent_listing`): more than it takes the CLI
# to start the flow after its check for an unchanged run, Prefect's ephemeral server included. A
# run that waited longer for its turn lists the corpus again.
RECENT_S = 10.0
LISTING_SCHEMA = pa.schema(
    [
        ("rel", pa.string()),  # the path relative to the corpus, '/'-separated: the file's key
        ("path", pa.string()),
        ("sha256", pa.string()),
        ("size", pa.int64()),
        ("mtime_ns", pa.int64()),
    ]
)


class CorpusMissing(Exception):
    """The corpus folder does not exist or is not a folder."""


def corpus_entries(corpus: Path) -> Iterator[tuple[str, str]]:
    """(path, path relative to the corpus) of every visible entry that is not a folder, and of
    every symbolic link to one (rejected later, see `corpus_listing`), in relative-path order.

    Each folder's entries are sorted as it is walked, a folder keyed by its name and a '/', so
    the walk comes out in the order of the whole relative paths without holding them all;
    os.scandir and plain strings rather than Path objects: a run lists its corpus on every start.
    """
    if not corpus.is_dir():
        raise CorpusMissing(f"corpus folder {corpus} does not exist or is not a folder")
    return _folder_entries(str(corpus), "")


def _folder_entries(folder: str, prefix: str) -> Iterator[tuple[str, str]]:
    """The entries under one folder, in relative-path order; a folder that cannot be read is
    left out, as os.walk leaves it. Only the folder's names are held while its entries stream."""
    try:
        with os.scandir(folder) as found:
            # never into a link to a folder: it is an entry like a file, rejected as a link
            keys = sorted(
                e.name + "/" if e.is_dir(follow_symlinks=False) else e.name
                for e in found
                if e.name[0] != "."
            )
    except OSError:
        return
    for key in keys:
        if key[-1] == "/":
            yield from _folder_entries(os.path.join(folder, key[:-1]), prefix + key)
        else:
            yield os.path.join(folder, key), prefix + key


def file_digest(path: str) -> str:
    """sha256 of a file's bytes, read unbuffered in 1 MiB blocks: most corpus files are one read,
    and they hash faster so than through Python's buffered reader."""
    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class FileDigest(NamedTuple):
    """A file's content hash with the size and mtime it had when hashed."""

    sha256: str
    size: int
    mtime_ns: int


class Skipped(NamedTuple):
    """A corpus entry that is not read: why (a `rejected_documents` reason) and what happened."""

    reason: str
    detail: str


def _skipped(stat: os.stat_result) -> Skipped | None:
    """Why an entry is not read, judged from its own status (a link is not followed), or None
    for a regular file.

    Symbolic links are never followed, inside the corpus or out: a link can point at any file
    on the machine (/etc/shadow), at a folder above the corpus, or at itself, and the corpus a
    run publishes should be the files in its folder. FIFOs, sockets and devices would block the
    read or never end it.
    """
    if stat_module.S_ISLNK(stat.st_mode):
        return Skipped("symlink", "a symbolic link: links are not followed; copy the file in")
    if not stat_module.S_ISREG(stat.st_mode):
        return Skipped("not_a_file", "not a regular file (a FIFO, socket or device)")
    return None


def _undecodable_name(rel: str) -> bool:
    """Whether a path holds bytes that are not UTF-8 (the OS hands them over as surrogates): no
    table can hold it as text, so the file is not read."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _shown_name(rel: str) -> str:
    """A path with its undecodable bytes escaped (`bad\\xff.md`), to name it in a rejection."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _unreadable(exc: OSError) -> Skipped:
    return Skipped("unreadable", exc.strerror or str(exc))


class _Recorded:
    """Digests recorded earlier, in path order, looked up as the listing passes each path (a
    merge of two sorted streams: neither is held whole)."""

    def __init__(self, rows: Iterator[tuple[str, FileDigest]]) -> None:
        self.rows = rows
        self.head = next(rows, None)

    def get(self, rel: str) -> FileDigest | None:
        while self.head is not None and self.head[0] < rel:
            self.head = next(self.rows, None)
        return self.head[1] if self.head is not None and self.head[0] == rel else None


def recorded_digests(warehouse: Warehouse) -> Iterator[tuple[str, FileDigest]]:
    """The size, mtime and content hash of each file at its last clean ingest, in path order,
    streamed from the warehouse."""
    if not warehouse.exists():
        return
    with warehouse.connect(read_only=True) as con:
        for batch in query(con, "ingest/known_stats").to_arrow_reader(LISTING_BATCH):
            yield from _digest_rows(batch)


def _digest_rows(batch: pa.RecordBatch) -> Iterator[tuple[str, FileDigest]]:
    """(relative path, digest) of each row of a listing's or the warehouse's batch."""
    cols = [batch.column(i).to_pylist() for i in range(4)]
    for rel, sha, size, mtime in zip(*cols, strict=True):
        yield rel, FileDigest(sha, size, mtime)


def _listed(
    entries: Iterable[tuple[str, str]], recorded: _Recorded, skipped: dict[str, Skipped]
) -> pa.Table:
    """One batch of the listing (LISTING_SCHEMA): a file whose size and modification time (ns)
    equal those recorded keeps its recorded hash without being read, as git and rsync decide;
    any other file is hashed. An entry that is not a regular file, or is gone or unreadable, goes
    to `skipped` with why: one bad entry never stops the listing, and ingest rejects it.
    """
    columns: tuple[list, ...] = ([], [], [], [], [])
    for path, rel in entries:  # a plain loop: corpus files are small, a pool's hand-offs cost more
        if not rel.isascii() and _undecodable_name(rel):
            skipped[_shown_name(rel)] = Skipped(
                "unreadable", "its name is not UTF-8 (shown with its bytes escaped): rename it"
            )
            continue
        try:
            stat = os.lstat(path)
        except OSError as exc:  # vanished since the folder was read
            skipped[rel] = _unreadable(exc)
            continue
        if (why := _skipped(stat)) is not None:
            skipped[rel] = why
            continue
        seen = recorded.get(rel)
        if seen and (seen.size, seen.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            sha = seen.sha256
        else:
            try:
                sha = file_digest(path)
            except OSError as exc:
                skipped[rel] = _unreadable(exc)
                continue
        for column, value in zip(
            columns, (rel, path, sha, stat.st_size, stat.st_mtime_ns), strict=True
        ):
            column.append(value)
    return pa.Table.from_arrays([pa.array(c) for c in columns], schema=LISTING_SCHEMA)


def _batched(items: Iterator[tuple[str, str]], size: int) -> Iterator[list[tuple[str, str]]]:
    """The items in lists of `size` (the last shorter)."""
    batch: list[tuple[str, str]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def listed_batches(parquet: Path) -> Iterator[list[tuple[str, str, FileDigest]]]:
    """The files of a Parquet list with LISTING_SCHEMA's columns (and maybe more), a batch at a
    time: (path, relative path, digest)."""
    for batch in pq.ParquetFile(parquet).iter_batches(LISTING_BATCH, columns=LISTING_SCHEMA.names):
        rels, paths, shas, sizes, mtimes = (c.to_pylist() for c in batch.columns)
        yield [
            (path, rel, FileDigest(sha, size, mtime))
            for rel, path, sha, size, mtime in zip(rels, paths, shas, sizes, mtimes, strict=True)
        ]


@dataclass(frozen=True)
class CorpusListing:
    """The corpus as a run listed it: its regular files in a Parquet listing (LISTING_SCHEMA, in
    path order), their count and bytes, the entries that are not read with why, and the
    fingerprint of both (`digest`). Its fingerprint and its ingest read one listing, not two; the
    listing's file is removed when the object is."""

    parquet: Path
    digest: str
    files: int
    size: int
    skipped: dict[str, Skipped]
    taken_at: float  # time.monotonic() when the walk ended

    def batches(self) -> Iterator[list[tuple[str, str, FileDigest]]]:
        """The listed files a batch at a time: (path, relative path, digest)."""
        return listed_batches(self.parquet)

    def recorded(self) -> Iterator[tuple[str, FileDigest]]:
        """(relative path, digest) of every listed file, in path order."""
        for batch in pq.ParquetFile(self.parquet).iter_batches(
            LISTING_BATCH, columns=["rel", "sha256", "size", "mtime_ns"]
        ):
            yield from _digest_rows(batch)


# The listing this process took last, by corpus and warehouse: a run takes it in the CLI (the
# no-op check, or while Prefect's server starts), which hands it over to the flow
# (`recent_listing`); a listing taken later hashes only the files whose size or mtime changed.
_TAKEN: dict[tuple[str, str], CorpusListing] = {}
_HANDED: dict[tuple[str, str], CorpusListing] = {}  # see `hand_over`
_SCRATCH: list[Path] = []
SCRATCH_PREFIX = "groundwork-listing-"  # then the process ID and a random part


def _scratch() -> Path:
    """This process's folder for listings, removed when it exits; made after the folders of
    processes that died without exiting (killed) are removed."""
    if not _SCRATCH:
        remove_dead_scratch(Path(tempfile.gettempdir()))
        folder = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _SCRATCH.append(folder)
    return _SCRATCH[0]


def remove_dead_scratch(folder: Path) -> None:
    """Remove the listing folders in `folder` whose process is gone. A run killed outright
    (the out-of-memory killer, `kill -9`) never runs its exit handlers, and its listing (a
    Parquet file of the whole corpus) would stay in the temporary folder for good."""
    for path in folder.glob(f"{SCRATCH_PREFIX}*-*"):
        pid = path.name.removeprefix(SCRATCH_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether a process with this ID runs (one of another user's counts: it is not ours to
    judge)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _listing_key(corpus: Path, warehouse: Warehouse) -> tuple[str, str]:
    return (str(corpus.resolve()), str(warehouse.root.resolve()))


def listing_taken(corpus: Path, warehouse: Warehouse) -> bool:
    """Whether this process has listed this corpus for this warehouse (so the next listing
    hashes only what changed since)."""
    return _listing_key(corpus, warehouse) in _TAKEN


def hand_over(listing: CorpusListing, corpus: Path, warehouse: Warehouse) -> None:
    """Hand this process's listing of the corpus over to the next `recent_listing` of it: the
    CLI's, when its check finds a run to do, for the flow it then starts."""
    if _TAKEN.get(_listing_key(corpus, warehouse)) is listing:
        _HANDED[_listing_key(corpus, warehouse)] = listing


def recent_listing(corpus: Path, warehouse: Warehouse) -> CorpusListing:
    """The listing handed over (`hand_over`) if it ended less than RECENT_S ago, taken once;
    else a new one (`corpus_listing`).

    The flow's, after the CLI's check: walking the corpus again would stat every file to find,
    within those seconds, what any listing may miss between its walk and ingest reading the
    files. A file that changes after a walk is read as it is then, with the walk's size and
    mtime recorded, so the next run finds it changed and reads it again. Taken once, so a
    second run in the process (a test's, a worker's) lists the corpus anew."""
    # a listing taken since clears what was handed over (`corpus_listing`)
    handed = _HANDED.pop(_listing_key(corpus, warehouse), None)
    if handed is not None and time.monotonic() - handed.taken_at < RECENT_S:
        return handed
    return corpus_listing(corpus, warehouse)


def corpus_listing(corpus: Path, warehouse: Warehouse) -> CorpusListing:
    """List and digest the corpus, streamed (unchanged files by the size and mtime seen when this
    process last listed this corpus, or else recorded at their last ingest).

    A listing taken earlier in this process covers every file listed then, so it stands in for
    the recorded digests: a file new since is hashed either way, and the warehouse's rows stay
    unread."""
    key = _listing_key(corpus, warehouse)
    entries = corpus_entries(corpus)  # a missing corpus fails here, before anything is written
    previous = _TAKEN.pop(key, None)
    out = _scratch() / f"listing-{uuid.uuid4().hex}.parquet"
    blob = hashlib.sha256()
    skipped: dict[str, Skipped] = {}
    files = size = 0
    rows = previous.recorded() if previous else recorded_digests(warehouse)
    with closing(rows), pq.ParquetWriter(out, LISTING_SCHEMA) as writer:
        recorded = _Recorded(rows)
        for batch in _batched(entries, LISTING_BATCH):
            table = _listed(batch, recorded, skipped)
            writer.write_table(table)
            for rel, sha in zip(table["rel"].to_pylist(), table["sha256"].to_pylist(), strict=True):
                blob.update(f"{rel}\0{sha}\n".encode())
            files += table.num_rows
            size += pc.sum(table["size"]).as_py() or 0
    for rel, why in sorted(skipped.items()):
        blob.update(f"{rel}\0{why.reason}\n".encode())
    listing = CorpusListing(out, blob.hexdigest(), files, size, skipped, time.monotonic())
    weakref.finalize(listing, out.unlink, missing_ok=True)
    _TAKEN.clear()  # one corpus's listing at most, in a long-lived worker too
    _HANDED.clear()  # one handed over and not taken is not handed on
    _TAKEN[key] = listing
    return listing
