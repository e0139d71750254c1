"""The corpus as a run sees it: every file listed, hashed by content, and the entries that are
not read, with why; and the corpus's fingerprint, so that a run on an unchanged corpus is known
as such before any stage works."""

from __future__ import annotations

import hashlib
import os
import stat as stat_module
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from groundwork.warehouse.sqlfiles import query
from groundwork.warehouse.store import Warehouse


class CorpusMissing(Exception):
    """The corpus folder does not exist or is not a folder."""


def corpus_files(corpus: Path) -> list[tuple[str, str]]:
    """(path, path relative to the corpus) of every visible entry that is not a folder, and of
    every symbolic link to one (rejected later, see `file_digests`), sorted for determinism.

    os.walk and plain strings rather than Path.rglob and Path objects: on the bench corpus the
    listing is many times faster so, and a run lists its corpus on every start.
    """
    if not corpus.is_dir():
        raise CorpusMissing(f"corpus folder {corpus} does not exist or is not a folder")
    found = []
    root = str(corpus)
    for folder, dirs, names in os.walk(root):  # never follows a link into a folder
        linked = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in linked]
        rel_base = os.path.relpath(folder, root)
        prefix = "" if rel_base == "." else rel_base.replace(os.sep, "/") + "/"
        found.extend(
            (os.path.join(folder, name), prefix + name) for name in names + linked if name[0] != "."
        )
    return sorted(found, key=lambda item: item[1])


def file_digest(path: str) -> str:
    """sha256 of a file's bytes, read unbuffered in 1 MiB blocks: most corpus files are one read,
    and they hash faster so than through Python's buffered reader."""
    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class FileDigest(NamedTuple):
    """A file's content hash with the size and mtime it had when hashed. A named tuple, not a
    dataclass: a run holds one per corpus file, and tuples of strings and ints are built faster
    and leave the cyclic collector nothing to walk."""

    sha256: str
    size: int
    mtime_ns: int


def known_stats(warehouse: Warehouse) -> dict[str, FileDigest]:
    """The size, mtime and content hash of each file at its last clean ingest."""
    if not warehouse.exists():
        return {}
    with warehouse.connect(read_only=True) as con:
        rows = query(con, "ingest/known_stats").fetchall()
    return {path: FileDigest(sha, size, mtime) for path, sha, size, mtime in rows}


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


def _digest_or_error(path: str) -> str | OSError:
    """A file's digest, or the error that stopped reading it (it vanished, or is unreadable)."""
    try:
        return file_digest(path)
    except OSError as exc:
        return exc


def _unreadable(exc: OSError) -> Skipped:
    return Skipped("unreadable", exc.strerror or str(exc))


def file_digests(
    files: list[tuple[str, str]], known: dict[str, FileDigest] | None = None
) -> tuple[dict[str, FileDigest], dict[str, Skipped]]:
    """Content hash of every regular corpus file, by relative path; and the entries that are not
    read, with why (a link, not a regular file, gone or unreadable when listed or hashed).

    A file whose size and modification time (ns) equal those recorded at its last ingest keeps
    its recorded hash without being read, as git and rsync decide; any other file is hashed.
    One bad entry never stops the listing: it is skipped, and ingest rejects it.
    """
    known = known or {}
    found: dict[str, FileDigest | None] = {}  # in corpus order; None until hashed below
    skipped: dict[str, Skipped] = {}
    unknown: list[tuple[str, str, os.stat_result]] = []
    for path, rel in files:  # a plain loop: stats are cheap, a thread pool adds seconds
        try:
            stat = os.lstat(path)
        except OSError as exc:  # vanished since the listing
            skipped[rel] = _unreadable(exc)
            continue
        if (why := _skipped(stat)) is not None:
            skipped[rel] = why
            continue
        seen = known.get(rel)
        if seen and (seen.size, seen.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            found[rel] = seen
        else:
            found[rel] = None
            unknown.append((path, rel, stat))
    # A plain loop again: corpus files are small, and a thread pool's per-file hand-offs cost
    # more than its threads gain (on the bench corpus a pool of two took several times as long)
    for path, rel, stat in unknown:
        sha = _digest_or_error(path)
        if isinstance(sha, OSError):
            del found[rel]
            skipped[rel] = _unreadable(sha)
        else:
            found[rel] = FileDigest(sha, stat.st_size, stat.st_mtime_ns)
    return found, skipped  # type: ignore[return-value]  # every None was replaced


@dataclass(frozen=True)
class CorpusSnapshot:
    """The corpus's files (path, relative path) and their digests by relative path, and the
    entries that are not read, as a run found them: its fingerprint and its ingest read one
    listing, not two."""

    files: list[tuple[str, str]]  # the regular files, to read
    digests: dict[str, FileDigest]
    skipped: dict[str, Skipped] = field(default_factory=dict)


# The digests of the corpus this process took last, by corpus and warehouse: a run takes them
# once in the CLI (the no-op check, or while Prefect's server starts) and again in the flow,
# and the second time hashes only the files whose size or mtime changed in between.
_TAKEN: dict[tuple[str, str], dict[str, FileDigest]] = {}


def corpus_snapshot(corpus: Path, warehouse: Warehouse) -> CorpusSnapshot:
    """List and digest the corpus (unchanged files by the size and mtime seen when this process
    last took this corpus's digests, or else recorded at their last ingest).

    Digests taken earlier in this process cover every file listed then, so they stand in for the
    recorded ones: a file new since is hashed either way, and the recorded stats stay unread
    (hundreds of MiB of Python objects on a large corpus)."""
    listed = corpus_files(corpus)
    key = (str(corpus.resolve()), str(warehouse.root.resolve()))
    known = _TAKEN.pop(key, None) or known_stats(warehouse)
    digests, skipped = file_digests(listed, known)
    _TAKEN.clear()  # one corpus's digests at most, in a long-lived worker too
    _TAKEN[key] = digests
    return CorpusSnapshot([f for f in listed if f[1] in digests], digests, skipped)


def corpus_digest(digests: dict[str, FileDigest], skipped: dict[str, Skipped]) -> str:
    """A hash of the corpus: every file's relative path and content, and every skipped entry's
    path and reason (a link replaced by the file it pointed at changes the corpus)."""
    blob = hashlib.sha256()
    for rel, digest in digests.items():
        blob.update(f"{rel}\0{digest.sha256}\n".encode())
    for rel, why in sorted(skipped.items()):
        blob.update(f"{rel}\0{why.reason}\n".encode())
    return blob.hexdigest()
