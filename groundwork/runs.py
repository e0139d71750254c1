"""The `runs` table: one row per run, opened when the flow starts and closed when it ends."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import stat as stat_module
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from groundwork.sqlfiles import query, relation_sql, run_script
from groundwork.warehouse import Warehouse, WarehouseUnusable
from schemas.config import RunConfig


class CorpusMissing(Exception):
    """The corpus folder does not exist or is not a folder."""


def corpus_files(corpus: Path) -> list[tuple[str, str]]:
    """(path, path relative to the corpus) of every visible entry that is not a folder, and of
    every symbolic link to one (rejected later, see `file_digests`), sorted for determinism.

    os.walk and plain strings rather than Path.rglob and Path objects: on the 94,622-file bench
    corpus the listing takes 0.2 s instead of 2.7 s, and a run lists its corpus on every start.
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


def new_run_id() -> str:
    """A run ID that sorts by start time: r20261121T101500123456Z."""
    return "r" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def start_run(
    warehouse: Warehouse,
    run_id: str,
    flow_run_id: str | None,
    corpus: str,
    config: RunConfig,
    fingerprint: str,
    code_version: str,
) -> None:
    """Record that a run started (or restarted), with its config, before any stage writes."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/start",
            {
                "run_id": run_id,
                "flow_run_id": flow_run_id,
                "corpus": corpus,
                "config": config.model_dump_json(),
                "config_hash": config.digest(),
                "input_fingerprint": fingerprint,
                "code_version": code_version,
            },
        )


def file_digest(path: str) -> str:
    """sha256 of a file's bytes, read unbuffered in 1 MiB blocks: most corpus files are one read
    (the bench corpus hashes in 0.85 s so, 1.05 s through Python's buffered reader)."""
    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class FileDigest(NamedTuple):
    """A file's content hash with the size and mtime it had when hashed. A named tuple, not a
    dataclass: a run holds one per corpus file (94,622 on the bench corpus), and tuples of strings
    and ints are built faster and leave the cyclic collector nothing to walk."""

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
    for path, rel in files:  # a plain loop: 94,622 stats take 0.3 s, a thread pool adds seconds
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
    # more than its threads gain (bench corpus: 3.3 s through a pool of two, 0.85 s so)
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
    (458 MiB of Python objects on 946,190 files)."""
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


def questions_digest(questions: Path | None) -> str:
    """A hash of the questions file ('' for none; a missing file hashes as missing)."""
    if questions is None:
        return ""
    return file_digest(questions) if questions.is_file() else f"missing:{questions}"


def stage_inputs(snapshot: CorpusSnapshot, questions: Path | None) -> dict[str, str]:
    """What the stages read from outside the warehouse, hashed by stage: the corpus (ingest) and
    the questions file (questions)."""
    return {
        "ingest": corpus_digest(snapshot.digests, snapshot.skipped),
        "questions": questions_digest(questions),
    }


def input_fingerprint(corpus: str, questions: str, config: RunConfig, code: str) -> str:
    """A hash of everything a run reads: corpus, questions, config and stage code versions.
    Equal fingerprints mean equal outputs."""
    blob = f"{corpus}|{questions}|{config.digest()}|{code}"
    return hashlib.sha256(blob.encode()).hexdigest()


def prepared_run(warehouse: Warehouse, flow_run_id: str | None, resume: str | None) -> str:
    """The run to work on: the one named, the one this flow run started before (a retry), or a
    new one. Runs left 'running' by a dead process are marked abandoned first."""
    with warehouse.connect() as con:
        run_script(con, "runs/abandon_stale")
        earlier = (
            query(con, "runs/of_flow_run", {"flow_run_id": flow_run_id}).fetchone()
            if flow_run_id
            else None
        )
    warehouse.discard_leftovers()
    return resume or (earlier[0] if earlier else new_run_id())


def latest_run(warehouse: Warehouse) -> str | None:
    """The newest run that did work (for --from-stage without --run)."""
    with warehouse.connect(read_only=True) as con:
        row = query(con, "runs/latest").fetchone()
    return row[0] if row else None


def unchanged_published(warehouse: Warehouse, fingerprint: str) -> tuple[str, dict] | None:
    """The published run and its counts, if it had exactly this run's inputs."""
    if not warehouse.exists():
        return None
    with warehouse.connect(read_only=True) as con:
        row = query(
            con,
            "runs/published_unchanged",
            {"input_fingerprint": fingerprint},
            published=relation_sql("runs/published"),
        ).fetchone()
    return (row[0], json.loads(row[1])) if row else None


def record_unchanged(
    warehouse: Warehouse,
    run_id: str,
    flow_run_id: str | None,
    corpus: str,
    config: RunConfig,
    fingerprint: str,
    reused: tuple[str, dict],
    seconds: float,
) -> None:
    """Record a run that had nothing to do: the published run stays as it is."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/unchanged",
            {
                "run_id": run_id,
                "flow_run_id": flow_run_id,
                "started_at": datetime.now(UTC).replace(tzinfo=None),
                "corpus": corpus,
                "config": config.model_dump_json(),
                "config_hash": config.digest(),
                "input_fingerprint": fingerprint,
                "reused_run": reused[0],
                "counts": json.dumps(reused[1]),
                "timings": json.dumps({"fingerprint": round(seconds, 3)}),
            },
        )


@dataclass(frozen=True)
class Outcome:
    """How a run ended, for its row in `runs`."""

    status: str
    corpus_hash: str | None = None
    counts: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    error: str | None = None


def finish_run(
    warehouse: Warehouse, run_id: str, flow_run_id: str | None, corpus: str, outcome: Outcome
) -> None:
    """Close a run's row with its outcome (opening it, if the run failed before it had one)."""
    with warehouse.connect() as con:
        run_script(
            con,
            "runs/finish",
            {
                "run_id": run_id,
                "flow_run_id": flow_run_id,
                "corpus": corpus,
                "status": outcome.status,
                "corpus_hash": outcome.corpus_hash,
                "counts": json.dumps(outcome.counts),
                "timings": json.dumps(outcome.timings),
                "error": outcome.error,
            },
        )


UNRECORDED = "unrecorded_runs.jsonl"


@contextmanager
def run_session(warehouse: Warehouse, flow_run_id: str | None, corpus: str) -> Iterator[None]:
    """The run lock and the database session a run works in.

    A run that cannot have them (another run or process holds the warehouse, or its database
    is damaged) cannot write its row either: it is noted in <warehouse>/unrecorded_runs.jsonl,
    and the next run that has them records every such note in `runs`, as a failed run with its
    error. So every attempt leaves a row, the ones a dashboard's open connection stopped too.
    """
    with ExitStack() as held:
        try:
            held.enter_context(warehouse.run_lock(f"flow run {flow_run_id}"))
            held.enter_context(warehouse.session())
        except WarehouseUnusable as exc:
            _note_attempt(warehouse, flow_run_id, corpus, str(exc))
            raise
        record_noted_attempts(warehouse)
        yield


def _note_attempt(warehouse: Warehouse, flow_run_id: str | None, corpus: str, error: str) -> None:
    note = {
        "run_id": new_run_id(),
        "flow_run_id": flow_run_id,
        "started_at": datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" "),
        "corpus": corpus,
        "error": error,
    }
    warehouse.root.mkdir(parents=True, exist_ok=True)
    with (warehouse.root / UNRECORDED).open("a", encoding="utf-8") as journal:
        fcntl.flock(journal, fcntl.LOCK_EX)  # one note at a time, and not while one is read
        journal.write(json.dumps(note) + "\n")


def record_noted_attempts(warehouse: Warehouse) -> None:
    """Record in `runs` every attempt noted in unrecorded_runs.jsonl (see `run_session`), as a
    failed run with its error, and empty the notes."""
    path = warehouse.root / UNRECORDED
    if not path.exists():
        return
    with path.open("r+", encoding="utf-8") as journal:
        fcntl.flock(journal, fcntl.LOCK_EX)
        notes = [json.loads(line) for line in journal if line.strip()]
        with warehouse.connect() as con:
            for note in notes:
                note["started_at"] = datetime.fromisoformat(note["started_at"])
                run_script(con, "runs/record_attempt", note)
        journal.truncate(0)


def model_outcome(warehouse: Warehouse, run_id: str) -> tuple[dict[str, dict], int]:
    """The run's per-stage model usage and how many items its model stages rejected."""
    with warehouse.connect(read_only=True) as con:
        (usage,) = query(con, "runs/model_usage_of", {"run_id": run_id}).fetchone()
        (rejected,) = query(con, "runs/model_rejection_count", {"run_id": run_id}).fetchone()
    return (json.loads(usage) if usage else {}), rejected
