"""The model response cache in the warehouse's DuckDB file, and its export and replay.

Keyed by (stage, prompt version, model, input hash). A reply is stored whether or not it parsed:
a reply that stayed unusable after the repair round is what this model says to this input, and
asking again would buy the same answer; transport failures (timeouts, 5xx) store nothing and are
retried next run. A new prompt version or model asks afresh. Exporting the table to Parquet
and importing it elsewhere with `replay: true` reproduces a run without a model server.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

from groundwork.warehouse.sqlfiles import literal_sql, query, run_script


@dataclass(frozen=True)
class CacheKey:
    stage: str
    prompt_version: str
    model: str
    input_hash: str


def input_hash(request: dict) -> str:
    """sha256 of everything in a request that shapes the reply, the model name aside."""
    blob = json.dumps(request, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def cached_responses(con: duckdb.DuckDBPyConnection, keys: list[CacheKey]) -> dict[CacheKey, str]:
    """The stored responses for those keys that have one."""
    if not keys:
        return {}
    wanted = pa.table(
        {
            "stage": [k.stage for k in keys],
            "prompt_version": [k.prompt_version for k in keys],
            "model": [k.model for k in keys],
            "input_hash": [k.input_hash for k in keys],
        }
    )
    con.register("wanted_keys", wanted)
    try:
        rows = query(con, "model_cache/lookup").fetchall()
    finally:
        con.unregister("wanted_keys")
    return {CacheKey(*row[:4]): row[4] for row in rows}


def store_responses(
    con: duckdb.DuckDBPyConnection, run_id: str, entries: list[tuple[CacheKey, str, int, int]]
) -> None:
    """Add (key, response text, prompt tokens, completion tokens) entries to the cache."""
    if not entries:
        return
    new = pa.table(
        {
            "stage": [k.stage for k, *_ in entries],
            "prompt_version": [k.prompt_version for k, *_ in entries],
            "model": [k.model for k, *_ in entries],
            "input_hash": [k.input_hash for k, *_ in entries],
            "response": [text for _, text, _, _ in entries],
            "prompt_tokens": pa.array([p for *_, p, _ in entries], pa.int32()),
            "completion_tokens": pa.array([c for *_, c in entries], pa.int32()),
            "run_id": [run_id] * len(entries),
        }
    )
    con.register("new_responses", new)
    try:
        run_script(con, "model_cache/store")
    finally:
        con.unregister("new_responses")


def cache_size(con: duckdb.DuckDBPyConnection) -> int:
    """Responses in the cache."""
    return query(con, "model_cache/count").fetchone()[0]


def export_cache(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """Write the whole cache to a Parquet file; returns the number of responses."""
    run_script(con, "model_cache/export", path=path)
    return cache_size(con)


def import_cache(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """Add the responses of an exported cache that this warehouse lacks; returns how many."""
    before = cache_size(con)
    con.execute(literal_sql("model_cache/import", path=path))
    return cache_size(con) - before
