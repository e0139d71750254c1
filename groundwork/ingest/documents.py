"""Parsing a batch of corpus files into documents and rejections: the pure part of ingest (paths
in, a checked documents table and a rejections table out), which runs in worker processes. The
stage (tasks/ingest.py) merges each batch into the warehouse."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from groundwork.ingest.listing import FileDigest
from groundwork.ingest.metadata import FileMetadata
from groundwork.ingest.parsers import Rejected, file_documents
from schemas.config import RunConfig
from schemas.contract import checked
from schemas.documents import ARROW_SCHEMA, Documents
from schemas.rejected_documents import ARROW_SCHEMA as REJECTED_SCHEMA

# A batch of files for one worker call: up to this many files or bytes, whichever comes first.
# Each batch pays a fixed cost (its contract check in pandera, and the trip to and from the
# worker): at 200 files a batch, the bench corpus paid it in seconds of CPU.
FILES_PER_BATCH = 2_000
BYTES_PER_BATCH = 16_000_000
# bump when parsing changes what a file yields: every file is parsed again (and bump the ingest
# stage's version in groundwork/stages.py, or an unchanged corpus is never parsed again at all)
INGEST_VERSION = "3"  # 3: sidecars and folder defaults, a PDF's /Title, PDF lines unwrapped


@dataclass(frozen=True)
class IngestResult:
    files: int
    documents: int
    changed: int
    rejected: int
    corpus_hash: str
    chars: int


def rejection_row(rel: str, exc: Rejected, doc_id: str | None = None) -> dict:
    """A `rejected_documents` row (without run_id)."""
    return {
        "path": rel,
        "record": exc.record,
        "doc_id": doc_id,
        "reason": exc.reason,
        "detail": exc.detail or exc.reason,
    }


LINES_PER_FILE = 5  # rejected records of one collection said one line each; the rest counted


def rejection_lines(rejections: list[tuple[str, str | None, str, str]]) -> list[str]:
    """One line per rejected file or record, to show the person running: each file's first
    LINES_PER_FILE records, then one line counting the rest by reason. A collection of 100,000
    bad records is six lines, not 100,000 (each one is still a row of rejected_documents)."""
    lines, said, left = [], Counter[str](), {}
    for path, record, reason, detail in rejections:
        said[path] += 1
        if said[path] <= LINES_PER_FILE:
            lines.append(f"rejected {f'{path} ({record})' if record else path}: {reason}: {detail}")
        else:
            left.setdefault(path, Counter[str]())[reason] += 1
    for path, reasons in left.items():
        counted = ", ".join(f"{n:,} {reason}" for reason, n in reasons.most_common())
        lines.append(f"rejected {path}: {counted} more records (all in rejected_documents)")
    return lines


# A file to parse: its path, its path in the corpus, its digest as the run's fingerprint saw it,
# and the metadata its sidecar and folder defaults give it (groundwork/ingest/metadata.py).
ParseItem = tuple[Path, str, FileDigest, FileMetadata]


def file_batches(files: Iterable[ParseItem]) -> Iterator[list[ParseItem]]:
    """The files in order, in batches of at most FILES_PER_BATCH files and, unless one file is
    larger, BYTES_PER_BATCH bytes; streamed, as the files come."""
    batch: list[ParseItem] = []
    size = 0
    for item in files:
        if batch and (len(batch) >= FILES_PER_BATCH or size + item[2].size > BYTES_PER_BATCH):
            yield batch
            batch, size = [], 0
        batch.append(item)
        size += item[2].size
    if batch:
        yield batch


def batch_count(files: int, size: int) -> int:
    """The fewest batches `file_batches` makes of `files` files of `size` bytes in all (as many as
    it makes unless a file is cut off by the byte limit): what a worker pool is sized by."""
    return max(-(-files // FILES_PER_BATCH), -(-size // BYTES_PER_BATCH))


def parsed_documents(batch: tuple[list[ParseItem], RunConfig]) -> tuple[pa.Table, pa.Table]:
    """Documents (checked against their contract, in the worker) and rejections of a batch.

    Each file comes with its size and modification time as the run's fingerprint saw them: a
    file that no longer has them after it was parsed changed while the run read it, so what was
    parsed is not what was fingerprinted, and it is rejected for this run.
    """
    files, config = batch
    docs: list[dict] = []
    rejected: list[dict] = []
    for path, rel, seen, metadata in files:
        try:
            result = file_documents(path, rel, config, metadata.values)
            unchanged = _stat_key(path) == (seen.size, seen.mtime_ns)
        except Rejected as exc:
            rejected.append(rejection_row(rel, exc))
            continue
        except OSError as exc:
            rejected.append(rejection_row(rel, Rejected("unreadable", exc.strerror or str(exc))))
            continue
        if not unchanged:
            rejected.append(rejection_row(rel, CHANGED))
            continue
        docs.extend(result.documents)
        rejected.extend(rejection_row(rel, exc) for exc in result.rejections)
    documents = checked(pa.Table.from_pylist(docs, schema=ARROW_SCHEMA), Documents, "documents")
    return documents, pa.Table.from_pylist(rejected, schema=REJECTED_SCHEMA)


CHANGED = Rejected("changed_while_read", "the file changed while the run read it: run again")


def _stat_key(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def parse_key(config: RunConfig) -> str:
    """A hash of the settings that shape parsing: a file parsed under others is parsed again."""
    shaping = config.model_dump(include={"max_file_bytes", "mapping", "default_source_type"})
    blob = json.dumps({"version": INGEST_VERSION, **shaping}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
