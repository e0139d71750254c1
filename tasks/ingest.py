"""Stage `documents`: parse every corpus file (in worker processes, groundwork/ingest/documents.py),
reject what cannot be read, and merge each batch into DuckDB's `documents` and `sources`; duplicate
doc_ids are rejected in the same transaction. When the run goes on to chunk and extract with a
backend that runs in workers, the workers chunk and extract what they parse in the same pass
(groundwork/ingest/shard_pass.py), for those stages to adopt.
"""

from __future__ import annotations

import logging
from itertools import tee

import pyarrow as pa
from prefect import task
from prefect.cache_policies import NO_CACHE

from groundwork.extract import worker_extractor
from groundwork.ingest.changed import files_to_parse
from groundwork.ingest.documents import (
    IngestResult,
    batch_count,
    file_batches,
    parse_key,
    rejection_lines,
    rejection_row,
)
from groundwork.ingest.listing import CorpusListing
from groundwork.ingest.metadata import corpus_metadata
from groundwork.ingest.parsers import Rejected
from groundwork.ingest.shard_pass import shard_pass
from groundwork.runtime.batches import mapped, worker_count
from groundwork.runtime.failpoints import failpoint
from groundwork.runtime.progress import stage_progress
from groundwork.runtime.shards import distributed_runner
from groundwork.warehouse.shard_parts import ShardParts
from groundwork.warehouse.sqlfiles import query, run_script
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from schemas.contract import checked
from schemas.rejected_documents import ARROW_SCHEMA as REJECTED_SCHEMA
from schemas.rejected_documents import RejectedDocuments

log = logging.getLogger("groundwork")


def ingest(
    warehouse: Warehouse,
    corpus: CorpusListing,
    run_id: str,
    config: RunConfig,
    extracting: bool = False,
) -> IngestResult:
    """Parse the corpus (as the run listed it) into the warehouse; returns counts and the corpus
    hash. `extracting`: the run goes on to chunk and extract, so the local worker processes, when
    they can run the extraction backend, chunk and extract the documents they parse
    (groundwork/warehouse/shard_parts.py).

    A file whose content hash, parse settings and metadata files (its sidecar and folder
    defaults, groundwork/ingest/metadata.py) equal those of its last clean ingest is not parsed
    again: its documents are known. Only new, changed and previously rejected files are.
    Metadata files are never parsed as documents; a bad one rejects the files it applies to.
    """
    key = parse_key(config)
    metadata = corpus_metadata(corpus, config)
    # the pass runs in this machine's worker processes; on a distributed runner (Dask) each stage
    # keeps its own shards, as task runs
    local = extracting and distributed_runner() is None
    backend = worker_extractor(config) if local else None
    bar = stage_progress("ingest", corpus.files, "files")
    rejected = [  # links, FIFOs, entries gone when listed (groundwork/ingest/listing.py)
        rejection_row(rel, Rejected(why.reason, why.detail)) for rel, why in corpus.skipped.items()
    ]
    rejected.extend(rejection_row(rel, why) for rel, why in metadata.unused.items())
    shards = ShardParts(warehouse, run_id) if backend is not None else None
    with warehouse.connect() as con:
        run_script(con, "ingest/incoming")
        to_parse = files_to_parse(con, corpus, metadata, key, config.max_file_bytes, rejected)
        bar.advance(corpus.files - to_parse.files)  # unchanged, metadata, rejected for metadata
        batches = ((files, config, backend) for files in file_batches(to_parse.items(metadata)))
        sent, received = tee(batches)
        workers = worker_count(
            config.workers, batch_count(to_parse.files, to_parse.size), to_parse.size
        )
        for (batch_files, _, _), shard in zip(
            received, mapped(shard_pass, sent, workers), strict=True
        ):
            rejected.extend(shard.rejected.to_pylist())
            con.register("parsed_batch", shard.documents)
            run_script(con, "ingest/add_parsed_batch")
            con.unregister("parsed_batch")
            if shards is not None:
                shards.write(shard)
            bar.advance(len(batch_files))
        if shards is not None:
            shards.close()
        rejected_table = checked(
            pa.Table.from_pylist(rejected, schema=REJECTED_SCHEMA),
            RejectedDocuments,
            "rejected_documents",
        )
        run_script(con, "ingest/parsed_files", {"to_parse": str(to_parse.parquet)})
        con.execute("BEGIN TRANSACTION")
        run_script(con, "ingest/clear_run", {"run_id": run_id})
        con.register("rejected_batch", rejected_table)
        run_script(con, "ingest/record_rejections", {"run_id": run_id})
        run_script(con, "ingest/duplicate_documents", {"run_id": run_id})
        run_script(con, "ingest/unchanged_files", {"run_id": run_id})
        run_script(con, "ingest/merge_documents", {"run_id": run_id})
        run_script(con, "ingest/record_files", {"run_id": run_id, "parse_key": key})
        failpoint("ingest")
        con.execute("COMMIT")
        documents, chars, corpus_hash, changed = query(
            con, "ingest/corpus_stats", {"run_id": run_id}
        ).fetchone()
        rejections = query(con, "runs/rejections", {"run_id": run_id}).fetchall()
    for line in rejection_lines(rejections):
        log.warning("%s", line)
    to_parse.parquet.unlink()
    bar.finish()
    listed = corpus.files + len(corpus.skipped)
    return IngestResult(listed, documents, changed, len(rejections), corpus_hash, chars)


ingest_task = task(ingest, name="ingest", cache_policy=NO_CACHE)
