"""Run configuration: one pydantic model, so every knob is typed, validated and recorded."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class ColumnMapping(BaseModel):
    """How passage collections (JSON / JSONL / Parquet) map onto document fields.

    Each value is a column name or a template with `{column}` placeholders (a template without
    placeholders is a constant). Unset fields fall back to common column names, so most
    collections, ObliQA included, ingest with no mapping at all.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str | None = None
    text: str | None = None
    title: str | None = None
    citation: str | None = None
    source_type: str | None = None
    jurisdiction: str | None = None
    url: str | None = None
    effective_date: str | None = None


class RunConfig(BaseModel):
    """Everything that changes a run's output. Its hash goes into `runs` and into cache keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_file_bytes: int = Field(20_000_000, gt=0, description="larger files are rejected")
    chunk_max_chars: int = Field(1_500, ge=200, description="size cap of a chunk")
    batch_docs: int = Field(500, gt=0, description="documents per parallel batch")
    workers: int = Field(0, ge=0, description="worker processes; 0 = one per core")
    top_k: int = Field(10, ge=1, le=200, description="chunks retrieved per question")
    mapping: ColumnMapping = ColumnMapping()
    default_source_type: str = Field("regulation", pattern="^(statute|regulation|policy)$")

    def digest(self) -> str:
        """A short stable hash of the config, for the runs table and cache keys."""
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def warehouse_dir(explicit: Path | None) -> Path:
    """The warehouse folder: the explicit one, else $GROUNDWORK_WAREHOUSE, else ./warehouse."""
    if explicit is not None:
        return explicit
    return Path(os.environ.get("GROUNDWORK_WAREHOUSE", "warehouse"))
