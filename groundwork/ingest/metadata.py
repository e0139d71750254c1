"""Metadata for corpus files from YAML files beside them, for the formats that carry little of
their own (PDF, HTML, plain text, Markdown without front matter).

- A sidecar, `<file>.meta.yaml` beside the file (`policy.pdf.meta.yaml` for `policy.pdf`),
  gives that one file the keys front matter gives.
- `_defaults.yaml` in a folder gives every file in that folder and below it default keys; its
  string values are templates over the file's `{name}`, `{stem}` and `{path}`.

Key by key, front matter wins over the sidecar, the sidecar over the nearest `_defaults.yaml`,
that over those of folders further up, and all of them over what the file says of itself (a
PDF's /Title, an HTML <title>). Collections (JSON, JSONL, Parquet) carry metadata per record and
through `--map`; neither applies to them.

Neither is a document: they are read here, in the stage's own process, once per run (they are
few and small), never followed through a link, and checked against the digest the run's
fingerprint took of them, so editing one changes the fingerprint and what is parsed matches it.
A bad one rejects the files it applies to, each naming it (`bad_sidecar`, `bad_defaults`),
never the run; a sidecar that describes no file it could apply to is rejected itself
(`unused_sidecar`).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from groundwork.ingest.listing import CorpusListing, FileDigest, Skipped
from groundwork.ingest.parsers import (
    SOURCE_TYPES,
    TEXT_SUFFIXES,
    Rejected,
    layered_metadata,
    yaml_mapping,
)
from schemas.config import RunConfig

SIDECAR_SUFFIX = ".meta.yaml"
DEFAULTS_NAME = "_defaults.yaml"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLACEHOLDERS = ("name", "stem", "path")
DESCRIBED_SUFFIXES = TEXT_SUFFIXES | {".pdf"}  # one document per file: what metadata applies to


@dataclass(frozen=True)
class FileMetadata:
    """What the metadata files give one document file: the merged values (templates filled), and
    a key naming which metadata files, at which content, they came from. Ingest parses a file
    again when its key changes, though its own bytes did not."""

    values: dict[str, Any] = field(default_factory=dict)
    key: str = ""


NO_METADATA = FileMetadata()


@dataclass(frozen=True)
class _Layer:
    """One metadata file as loaded and checked."""

    rel: str
    sha256: str
    values: dict[str, Any]


def is_metadata_file(rel: str) -> bool:
    """Whether a corpus path is a sidecar or a folder's defaults, which are never documents."""
    name = rel.rsplit("/", 1)[-1]
    return name == DEFAULTS_NAME or name.endswith(SIDECAR_SUFFIX)


def _described(rel: str) -> bool:
    return not is_metadata_file(rel) and PurePosixPath(rel).suffix.lower() in DESCRIBED_SUFFIXES


def _metadata_paths(rel: str) -> list[str]:
    """The metadata files that would apply to a file, farthest first: the `_defaults.yaml` of
    every folder from the corpus root down to the file's own, then its sidecar."""
    folders = rel.split("/")[:-1]
    prefixes = ["/".join(folders[:depth]) for depth in range(len(folders) + 1)]
    defaults = [f"{prefix}/{DEFAULTS_NAME}" if prefix else DEFAULTS_NAME for prefix in prefixes]
    return [*defaults, rel + SIDECAR_SUFFIX]


@dataclass(frozen=True)
class CorpusMetadata:
    """The corpus's metadata files, each loaded and checked (they are few, whatever the corpus's
    size), and the sidecars that describe no file they could apply to, by relative path; what
    applies to one file is `of(rel)`, worked out as the file is met, so no per-file table of the
    whole corpus is built."""

    layers: dict[str, _Layer | Rejected]
    unused: dict[str, Rejected]

    def of(self, rel: str) -> FileMetadata | Rejected | None:
        """What the metadata files give one listed file (NO_METADATA for collections and files
        no metadata file names), the rejection its metadata earns it (the farthest problem: one
        line per file), or None for a metadata file, which is never a document."""
        if is_metadata_file(rel):
            return None
        if not self.layers or not _described(rel):  # most corpora have no metadata files
            return NO_METADATA
        chain = [self.layers[m] for m in _metadata_paths(rel) if m in self.layers]
        problems = [found for found in chain if isinstance(found, Rejected)]
        if problems:
            return problems[0]
        return _file_metadata(rel, [f for f in chain if isinstance(f, _Layer)])


def corpus_metadata(listing: CorpusListing, config: RunConfig) -> CorpusMetadata:
    """The corpus's metadata files loaded (a link, FIFO or vanished one as the rejection of the
    files it applies to) and its unused sidecars, from one pass over the listing, and a second
    over it only when there are sidecars to match to their files."""
    found: dict[str, str | None] = {rel: None for rel in listing.skipped if is_metadata_file(rel)}
    digests: dict[str, FileDigest] = {}
    for batch in listing.batches():
        for path, rel, digest in batch:
            if is_metadata_file(rel):
                found[rel], digests[rel] = path, digest
    layers = {
        rel: _loaded_layer(rel, path, digests.get(rel), listing.skipped, config)
        for rel, path in found.items()
    }
    # a linked sidecar has its `symlink` row already
    sidecars = [rel for rel in digests if rel.endswith(SIDECAR_SUFFIX)]
    targets = {rel.removesuffix(SIDECAR_SUFFIX) for rel in sidecars}
    listed = targets & (_listed_among(listing, targets) | listing.skipped.keys())
    unused = {
        rel: Rejected("unused_sidecar", why)
        for rel in sidecars
        if (why := _unused_sidecar(rel, listed)) is not None
    }
    return CorpusMetadata(layers, unused)


def _listed_among(listing: CorpusListing, wanted: set[str]) -> set[str]:
    """Those of `wanted` that are listed files (no pass over the listing for none)."""
    if not wanted:
        return set()
    return {rel for batch in listing.batches() for _, rel, _ in batch if rel in wanted}


def _unused_sidecar(rel: str, listed: set[str]) -> str | None:
    """Why a sidecar applies to nothing (its file is missing, or takes no sidecar), or None;
    `listed`: the listed entries among the files sidecars describe."""
    target = rel.removesuffix(SIDECAR_SUFFIX)
    if target not in listed:
        return f"{target}, the file it describes, is not in the corpus"
    if not _described(target):
        return (
            f"{target} takes no sidecar: only text, Markdown, HTML and PDF files do "
            "(a collection's records carry their own metadata)"
        )
    return None


def _file_metadata(rel: str, chain: list[_Layer]) -> FileMetadata:
    """One file's metadata from its loaded chain: defaults nearest-wins with their templates
    filled for this file, then its sidecar as written."""
    if not chain:
        return NO_METADATA
    path = PurePosixPath(rel)
    fields = {"name": path.name, "stem": path.stem, "path": rel}
    layers = [
        _filled(found.values, fields) if found.rel.endswith(DEFAULTS_NAME) else found.values
        for found in chain
    ]
    key = hashlib.sha256("".join(f"{f.rel}\0{f.sha256}\n" for f in chain).encode()).hexdigest()
    return FileMetadata(layered_metadata(*layers), key)


def _filled(values: dict[str, Any], fields: dict[str, str]) -> dict[str, Any]:
    """A defaults mapping with every `{placeholder}` of its string values filled (each was
    checked to be one of PLACEHOLDERS when the file was loaded)."""
    return {
        key: PLACEHOLDER.sub(lambda m: fields[m.group(1)], value)
        if isinstance(value, str)
        else value
        for key, value in values.items()
    }


def _loaded_layer(
    rel: str,
    path: str | None,
    seen: FileDigest | None,
    skipped: dict[str, Skipped],
    config: RunConfig,
) -> _Layer | Rejected:
    """A metadata file loaded and checked, or the rejection of the files it applies to."""
    reason = "bad_defaults" if rel.endswith(DEFAULTS_NAME) else "bad_sidecar"
    if path is None or seen is None:  # a link, FIFO or vanished entry: never read
        return Rejected(reason, f"{rel}: {skipped[rel].detail}")
    try:
        text = _metadata_text(rel, path, seen, config, reason)
        values = _checked(rel, yaml_mapping(text, rel, reason), reason)
    except Rejected as exc:
        return exc
    return _Layer(rel, seen.sha256, values)


def _metadata_text(rel: str, path: str, seen: FileDigest, config: RunConfig, reason: str) -> str:
    """The text of a metadata file, read without following a link, and only if it is what the
    run's fingerprint hashed."""
    if seen.size > config.max_file_bytes:
        raise Rejected(reason, f"{rel}: {seen.size:,} bytes is over the size limit")
    try:
        data = _unfollowed_bytes(path)
    except OSError as exc:
        raise Rejected(reason, f"{rel}: {exc.strerror or exc}") from exc
    if hashlib.sha256(data).hexdigest() != seen.sha256:
        raise Rejected("changed_while_read", f"{rel} changed while the run read it: run again")
    if b"\x00" in data:
        raise Rejected(reason, f"{rel} contains NUL bytes; it is not YAML")
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        raise Rejected(reason, f"{rel} is not UTF-8 at byte {exc.start}") from exc


def _unfollowed_bytes(path: str) -> bytes:
    """A file's bytes; a link put in its place since the listing fails rather than is followed."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def _checked(rel: str, values: dict[str, Any], reason: str) -> dict[str, Any]:
    """A metadata mapping, or the rejection of a key it cannot have: a key that is not a name,
    an unknown source_type, and in defaults a placeholder not in PLACEHOLDERS or a fixed doc_id
    (which every file below would claim)."""
    if not all(isinstance(key, str) for key in values):
        raise Rejected(reason, f"{rel} has a key that is not a name")
    source_type = values.get("source_type")
    if source_type is not None and str(source_type).strip().lower() not in SOURCE_TYPES:
        raise Rejected(
            reason, f"{rel}: source_type {source_type!r} is not one of {sorted(SOURCE_TYPES)}"
        )
    if reason != "bad_defaults":
        return values
    known = ", ".join(f"{{{name}}}" for name in PLACEHOLDERS)
    for key, value in values.items():
        unknown = [
            name
            for name in (PLACEHOLDER.findall(value) if isinstance(value, str) else [])
            if name not in PLACEHOLDERS
        ]
        if unknown:
            raise Rejected(reason, f"{rel}: {key} names {{{unknown[0]}}}, not one of {known}")
    doc_id = values.get("doc_id")
    if doc_id is not None and not (isinstance(doc_id, str) and PLACEHOLDER.search(doc_id)):
        raise Rejected(
            reason, f"{rel}: doc_id must name one of {known}: every file below would claim it"
        )
    return values
