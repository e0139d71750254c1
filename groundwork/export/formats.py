"""Writing a provenance export: the records as JSON, JSONL or Parquet, or views of them for
spreadsheets (CSV, XLSX) and compliance tools (OSCAL, CISO Assistant).

The first three carry the same records (schemas/export.py): `json` is one document holding a list
per entity; `jsonl` is one record per line, the run first, each with its `record_type`; `parquet`
is a folder with one file per entity (`run.parquet`, `sources.parquet`, ...), typed from the
record models so that an empty entity still has its columns. `csv` (a folder, one file per
table) and `xlsx` (one sheet per table) hold the tables of
groundwork/export/spreadsheets.py; `oscal`
is the register as an OSCAL catalog (groundwork/export/oscal.py) and `ciso-assistant` as a CISO
Assistant library
(groundwork/export/ciso_assistant.py). Each is written beside its target and renamed
into place, so a reader never sees half an export.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import pyarrow as pa
import pyarrow.parquet as pq
import yaml
from pydantic import BaseModel

from groundwork.export.ciso_assistant import ciso_library
from groundwork.export.oscal import oscal_catalog
from groundwork.export.spreadsheets import SHEETS, Cell, spreadsheet_tables
from schemas.export import ENTITIES, Provenance

# Format -> the name written when no --out is given (in the run's report folder).
DEFAULT_NAMES = {
    "json": "provenance.json",
    "jsonl": "provenance.jsonl",
    "parquet": "provenance",
    "csv": "provenance-csv",
    "xlsx": "provenance.xlsx",
    "oscal": "oscal-catalog.json",
    "ciso-assistant": "ciso-assistant-library.yaml",
}
# The formats that carry every record of the export (the others are views of some of them).
RECORD_FORMATS = ("json", "jsonl", "parquet")
# Formats written as a folder -> (their name in messages, the files an export of theirs holds):
# only a folder holding nothing else is ever replaced.
_FOLDERS = {
    "parquet": ("Parquet", {f"{entity}.parquet" for entity in ENTITIES}),
    "csv": ("CSV", {f"{sheet}.csv" for sheet in SHEETS}),
}
_ARROW_TYPES = {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_()}
# libyaml's dumper writes the same text as the pure-Python one, several times faster.
_YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


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


def _write_csv(export: Provenance, folder: Path) -> None:
    """One UTF-8 CSV per table (no byte-order mark), a header row first, RFC 4180 quoting."""
    folder.mkdir()
    for name, sheet in spreadsheet_tables(export).items():
        with (folder / f"{name}.csv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(sheet.columns)
            writer.writerows(sheet.rows)


def _write_xlsx(export: Provenance, path: Path) -> None:
    """One sheet per table, header row frozen; write-only, so a large register streams out.
    XML cannot hold most control characters: one in a text (a form feed from a PDF) becomes
    U+FFFD, and the offsets still locate the quote in the document."""
    # imported here: openpyxl is slow to import, which the other formats need not pay
    import openpyxl
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    def xml_cell(value: Cell) -> Cell:
        return ILLEGAL_CHARACTERS_RE.sub("\ufffd", value) if isinstance(value, str) else value

    workbook = openpyxl.Workbook(write_only=True)
    for name, sheet in spreadsheet_tables(export).items():
        worksheet = workbook.create_sheet(name)
        worksheet.freeze_panes = "A2"
        worksheet.append(sheet.columns)
        for row in sheet.rows:
            worksheet.append([xml_cell(value) for value in row])
    workbook.save(path)


def _write_oscal(export: Provenance, path: Path) -> None:
    """Sorted keys and a fixed layout: the same run gives the same bytes."""
    text = json.dumps(oscal_catalog(export), indent=2, sort_keys=True, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def _write_ciso_assistant(export: Provenance, path: Path) -> None:
    """Keys in the order of CISO Assistant's own libraries (urn first); text left readable."""
    library = ciso_library(export)
    text = yaml.dump(library, Dumper=_YAML_DUMPER, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(text, encoding="utf-8")


_WRITERS = {
    "json": _write_json,
    "jsonl": _write_jsonl,
    "parquet": _write_parquet,
    "csv": _write_csv,
    "xlsx": _write_xlsx,
    "oscal": _write_oscal,
    "ciso-assistant": _write_ciso_assistant,
}


class UnsafeTarget(Exception):
    """The target cannot take the export: a folder that is not an earlier export of the same
    folder format (it is never replaced), a folder where a file would go, or a path under a
    file."""


def export_target(fmt: str, out: Path | None, default_folder: Path) -> Path:
    """Where to write: `out` (inside it, if it is a folder and the format a file), else
    `default_folder` / DEFAULT_NAMES[fmt]. A folder a Parquet or CSV export would replace must
    hold nothing but an earlier export of that format."""
    target = out if out is not None else default_folder / DEFAULT_NAMES[fmt]
    if fmt not in _FOLDERS and target.is_dir():
        target = target / DEFAULT_NAMES[fmt]
    parent = next((p for p in target.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise UnsafeTarget(f"{parent} is a file, not a folder: choose another --out")
    if fmt not in _FOLDERS:
        if target.is_dir():
            raise UnsafeTarget(f"{target} is a folder: choose another --out")
        return target
    label, files = _FOLDERS[fmt]
    if target.exists() and not (target.is_dir() and {p.name for p in target.iterdir()} <= files):
        raise UnsafeTarget(f"{target} exists and is not a {label} export: choose another --out")
    return target


def written_export(export: Provenance, fmt: str, target: Path) -> Path:
    """Write the export to `target` (a file, or a folder for Parquet and CSV), replacing an earlier
    export there; returns the target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    if partial.is_dir():
        shutil.rmtree(partial)
    partial.unlink(missing_ok=True)
    _WRITERS[fmt](export, partial)
    if target.is_dir():  # an earlier Parquet or CSV export (export_target checked)
        shutil.rmtree(target)
    os.replace(partial, target)
    return target
