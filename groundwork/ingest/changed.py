"""Which of the listed files a run parses. A file whose content hash, parse settings and metadata
files (its sidecar and folder defaults) equal those of its last clean ingest is not parsed again:
its documents are known. Decided a listing batch at a time against the warehouse's
`corpus_files`: the unchanged files go to the connection's temp table `unchanged_files`, the rest
to a Parquet list, in path order, that the parse reads back a batch at a time. Neither list is
ever held whole, however large the corpus."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.ingest.documents import ParseItem, rejection_row
from groundwork.ingest.listing import LISTING_SCHEMA, CorpusListing, listed_batches
from groundwork.ingest.metadata import CorpusMetadata, FileMetadata
from groundwork.ingest.parsers import Rejected
from groundwork.warehouse.sqlfiles import query, run_script

PARSE_SCHEMA = LISTING_SCHEMA.append(pa.field("meta_key", pa.string()))


@dataclass(frozen=True)
class ToParse:
    """The files a run parses, listed in `parquet` (PARSE_SCHEMA, in path order), how many, and
    the bytes of those within the size limit (the text to parse: an oversized file is rejected
    unread)."""

    parquet: Path
    files: int
    size: int

    def items(self, metadata: CorpusMetadata) -> Iterator[ParseItem]:
        """Each file to parse with its digest and the metadata that applies to it."""
        for batch in listed_batches(self.parquet):
            for path, rel, digest in batch:
                # listed to parse, so neither a metadata file nor rejected for its metadata
                yield Path(path), rel, digest, cast(FileMetadata, metadata.of(rel))


def files_to_parse(
    con: duckdb.DuckDBPyConnection,
    listing: CorpusListing,
    metadata: CorpusMetadata,
    parse_key: str,
    max_bytes: int,
    rejected: list[dict],
) -> ToParse:
    """The listed documents that are new or changed (or were rejected last time), and the
    unchanged ones in `unchanged_files`; a file its metadata rejects gets its row in `rejected`,
    and metadata files are neither (they are never documents)."""
    out = listing.parquet.with_name(f"{listing.parquet.stem}-to-parse.parquet")
    files = size = 0
    run_script(con, "ingest/unchanged_files_table")
    with pq.ParquetWriter(out, PARSE_SCHEMA) as writer:
        for batch in listing.batches():
            columns: tuple[list, ...] = ([], [], [], [], [], [])
            for path, rel, digest in batch:
                meta = metadata.of(rel)
                if isinstance(meta, Rejected):
                    rejected.append(rejection_row(rel, meta))
                elif meta is not None:
                    for column, value in zip(columns, (rel, path, *digest, meta.key), strict=True):
                        column.append(value)
            listed = pa.Table.from_arrays([pa.array(c) for c in columns], schema=PARSE_SCHEMA)
            con.register("listed_batch", listed)
            run_script(con, "ingest/add_unchanged", {"parse_key": parse_key})
            fresh = query(con, "ingest/changed_files", {"parse_key": parse_key}).to_arrow_table()
            con.unregister("listed_batch")
            writer.write_table(fresh.cast(PARSE_SCHEMA))
            files += fresh.num_rows
            size += sum(s for s in fresh["size"].to_pylist() if s <= max_bytes)
    return ToParse(out, files, size)
