"""Writing a provenance export as JSON, JSONL or Parquet.

Every format carries the same records (schemas/export.py): `json` is one document holding a list
per entity; `jsonl` is one record per line, the run first, each with its `record_type`; `parquet`
is a folder with one file per entity (`run.parquet`, `sources.parquet`, ...), typed from the
record models so that an empty entity still has its columns. Each is written beside its target
and renamed into place, so a reader never sees half an export.
"""

from __future__ import annotations

import os
import shutil
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel

from schemas.export import ENTITIES, Provenance

# Format -> the name written when no --out is given (in the run's report folder).
DEFAULT_NAMES = {"json": "provenance.json", "jsonl": "provenance.jsonl", "parquet": "provenance"}
_PARQUET_FILES = {f"{entity}.parquet" for entity in ENTITIES}
_ARROW_TYPES = {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_()}


def arrow_type(annotation: Any) -> pa.DataType:
    """The Arrow type of a record field: str, int, float, bool, a Literal of one of them, a list
    of those, or any of them optional."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in get_args(annotation) if a is not type(None)]
        return arrow_type(inner)
    if origin is Literal:
        return _ARROW_TYPES[type(get_args(annotation)[0])]
    if origin is list:
        return pa.list_(arrow_type(get_args(annotation)[0]))
    if get_args(annotation):  # Annotated[str, Field(...)] and the like
        return arrow_type(get_args(annotation)[0])
    return _ARROW_TYPES[annotation]


def arrow_schema(model: type[BaseModel]) -> pa.Schema:
    """The Parquet schema of a record model, field for field."""
    return pa.schema([(name, arrow_type(f.annotation)) for name, f in model.model_fields.items()])


def _rows(export: Provenance, entity: str) -> list[BaseModel]:
    value = getattr(export, entity)
    return value if isinstance(value, list) else [value]


def _write_json(export: Provenance, path: Path) -> None:
    path.write_text(export.model_dump_json(indent=1) + "\n", encoding="utf-8")


def _write_jsonl(export: Provenance, path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for entity in ENTITIES:
            for record in _rows(export, entity):
                handle.write(record.model_dump_json() + "\n")


def _write_parquet(export: Provenance, folder: Path) -> None:
    folder.mkdir()
    for entity, model in ENTITIES.items():
        rows = [r.model_dump(mode="json") for r in _rows(export, entity)]
        table = pa.Table.from_pylist(rows, schema=arrow_schema(model))
        pq.write_table(table, folder / f"{entity}.parquet", compression="zstd")


_WRITERS = {"json": _write_json, "jsonl": _write_jsonl, "parquet": _write_parquet}


class UnsafeTarget(Exception):
    """The target is a folder that is not an earlier Parquet export: it is never replaced."""


def export_target(fmt: str, out: Path | None, default_folder: Path) -> Path:
    """Where to write: `out` (inside it, if it is a folder and the format a file), else
    `default_folder` / provenance.json|jsonl or provenance/. A folder a Parquet export would
    replace must hold nothing but an earlier Parquet export."""
    target = out if out is not None else default_folder / DEFAULT_NAMES[fmt]
    if fmt != "parquet":
        return target / DEFAULT_NAMES[fmt] if target.is_dir() else target
    if target.exists() and not (
        target.is_dir() and {p.name for p in target.iterdir()} <= _PARQUET_FILES
    ):
        raise UnsafeTarget(f"{target} exists and is not a Parquet export: choose another --out")
    return target


def written_export(export: Provenance, fmt: str, target: Path) -> Path:
    """Write the export to `target` (a file, or a folder for Parquet), replacing an earlier
    export there; returns the target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    if partial.is_dir():
        shutil.rmtree(partial)
    partial.unlink(missing_ok=True)
    _WRITERS[fmt](export, partial)
    if target.is_dir():  # an earlier Parquet export (export_target checked)
        shutil.rmtree(target)
    os.replace(partial, target)
    return target
