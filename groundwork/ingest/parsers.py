"""Turn one corpus file into document records, or say exactly why it was rejected.

Every reader returns plain dicts with the fields of the `documents` table (minus run bookkeeping),
so the ingest stage can batch them into Arrow without knowing the file format. A whole-file problem
raises `Rejected`; a bad record inside a collection becomes one rejection and the rest go on.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml

from groundwork.ingest.unwrap import unwrapped_lines
from schemas.config import ColumnMapping, RunConfig
from schemas.ids import invalid_id_reason, shown_id

TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".text", ".htm", ".html"}
COLLECTION_SUFFIXES = {".json", ".jsonl", ".ndjson", ".parquet"}
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | COLLECTION_SUFFIXES | {".pdf"}
SOURCE_TYPES = {"statute", "regulation", "policy"}

# Column names tried, in order, when the mapping leaves a field unset.
DEFAULT_COLUMNS: dict[str, tuple[str, ...]] = {
    "id": ("doc_id", "id", "ID", "Id", "uuid", "UUID"),
    "text": ("text", "Text", "Passage", "passage", "content", "body"),
    "title": ("title", "Title", "heading"),
    "citation": ("citation", "Citation"),
    "source_type": ("source_type",),
    "jurisdiction": ("jurisdiction", "Jurisdiction"),
    "url": ("source_url", "url", "URL"),
    "effective_date": ("effective_date",),
}
URL_KEYS = ("source_url", "url")  # the order document_record reads them in
METADATA_FIELDS = ("title", "citation", "source_type", "jurisdiction", "url", "effective_date")
TEMPLATE_FIELD = re.compile(r"\{([^{}]+)\}")
# libyaml's loader is many times faster than the pure-Python one; front matter is most of ingest.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
HEADING_LINE = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


class Rejected(Exception):
    """A whole file (or one record of a collection) that cannot become a document."""

    def __init__(self, reason: str, detail: str = "", record: str | None = None) -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
        self.record = record


@dataclass
class FileResult:
    """What one file produced: documents, and rejections of single records inside it."""

    documents: list[dict[str, Any]] = field(default_factory=list)
    rejections: list[Rejected] = field(default_factory=list)


def normalised_text(raw: str) -> str:
    """Text as stored: NFC, LF line ends, no BOM, no outer blank space. Offsets index into this."""
    text = raw.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", text).strip()


def content_sha256(text: str) -> str:
    """The content hash that incremental runs and source keys are built on."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def decoded_text(data: bytes) -> str:
    """UTF-8 text of a file, or a rejection saying it is binary or not UTF-8."""
    if not data.strip():
        raise Rejected("empty", "the file has no content")
    if b"\x00" in data[:8192]:
        raise Rejected("binary", "the file contains NUL bytes; it is not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Rejected("undecodable", f"not UTF-8 at byte {exc.start}") from exc


def _has_aliases(block: str) -> bool:
    """Whether a YAML block uses aliases (`*name`). An alias repeats its anchor's value where it
    stands: nine lines of them (a "billion laughs") load in a blink as shared lists, then expand
    to gigabytes when the metadata is written out as JSON. Front matter has no use for them."""
    if "&" not in block or "*" not in block:  # no anchor or no alias: the usual case, free
        return False
    return any(isinstance(t, yaml.AliasToken) for t in yaml.scan(block, Loader=_YAML_LOADER))


# Front matter as the corpus writes it: one `key: "string"` or `key: ["string", ...]` per line,
# no escapes. Such a block means what its characters say, and reading it so is several times
# faster than libyaml's loader, whose objects are built in Python: front matter was most of
# parsing the bench corpus. Any other block goes to YAML.
_QUOTED = r'"[^"\\]*"'
_SIMPLE_LINE = re.compile(
    rf"(?P<key>[A-Za-z_][A-Za-z0-9_]*):[ ]+(?:(?P<string>{_QUOTED})"
    rf"|\[(?P<items>[ ]*(?:{_QUOTED}[ ]*(?:,[ ]*{_QUOTED}[ ]*)*)?)\])[ ]*"
)
_QUOTED_ITEM = re.compile(_QUOTED)
# Plain keys YAML 1.1 reads as booleans or null, not strings
_RESOLVED_KEYS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})
# What YAML refuses (its reader's non-printable characters) or reads as a line break
_NOT_PLAIN = re.compile(
    r"[^\t\n\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]"
)


def simple_mapping(block: str) -> dict[str, Any] | None:
    """The mapping of a front-matter block written one `key: "string"` or `key: ["string", ...]`
    per line without escapes (what YAML would load from it); None for any other block."""
    if _NOT_PLAIN.search(block):
        return None
    mapping: dict[str, Any] = {}
    for line in block.split("\n"):
        found = _SIMPLE_LINE.fullmatch(line)
        if found is None or found["key"].lower() in _RESOLVED_KEYS:
            return None
        if found["string"] is not None:
            mapping[found["key"]] = found["string"][1:-1]
        else:
            mapping[found["key"]] = [q[1:-1] for q in _QUOTED_ITEM.findall(found["items"])]
    return mapping


def yaml_mapping(block: str, what: str, reason: str) -> dict[str, Any]:
    """A YAML block (front matter, a sidecar, a folder's defaults) as a key: value mapping, or a
    `Rejected` with `reason` saying in one line why not, `what` naming the block."""
    simple = simple_mapping(block)
    if simple is not None:
        return simple
    try:
        if _has_aliases(block):
            raise Rejected(reason, f"{what} uses YAML aliases (*name)")
        meta = yaml.load(block, Loader=_YAML_LOADER)
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise Rejected(reason, f"{what} is not valid YAML ({first})") from exc
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise Rejected(reason, f"{what} is not a key: value mapping")
    return meta


def front_matter_and_body(text: str) -> tuple[dict[str, Any], str]:
    """Split `---` YAML front matter from a Markdown body; a broken block rejects the file."""
    if not text.startswith("---"):
        return {}, text
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return {}, text
    for i, line in enumerate(lines[1:], start=1):
        if line.strip() in ("---", "..."):
            meta = yaml_mapping("\n".join(lines[1:i]), "front matter", "front_matter")
            return meta, "\n".join(lines[i + 1 :])
    raise Rejected("front_matter", "front matter opened with '---' is never closed")


def layered_metadata(*layers: Mapping[str, Any]) -> dict[str, Any]:
    """Metadata layers merged key by key, a later layer winning over an earlier one (a folder's
    defaults, then a sidecar, then front matter). `url` and `source_url` are one key: a later
    layer's `url` is not hidden by an earlier layer's `source_url`."""
    merged: dict[str, Any] = {}
    for layer in layers:
        if any(key in layer for key in URL_KEYS):
            for key in URL_KEYS:
                merged.pop(key, None)
        merged.update(layer)
    return merged


def first_heading(body: str) -> str | None:
    """The first Markdown heading, used as a title when the metadata has none."""
    match = HEADING_LINE.search(body)
    return match.group(1).strip() if match else None


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    text = str(value).strip()
    return text or None


def document_record(
    *,
    doc_id: str,
    path: str,
    fmt: str,
    text: str,
    meta: Mapping[str, Any],
    config: RunConfig,
) -> dict[str, Any]:
    """One `documents` row from parsed metadata and normalised text; rejects an ID that breaks
    the grammar of schemas/ids.py, empty text or a bad source type."""
    problem = invalid_id_reason(doc_id)
    if problem is not None:
        raise Rejected("bad_doc_id", f"doc_id {shown_id(doc_id)} {problem}")
    if not text:
        raise Rejected("empty", "no text after the metadata")
    source_type = (_str_or_none(meta.get("source_type")) or config.default_source_type).lower()
    if source_type not in SOURCE_TYPES:
        raise Rejected(
            "bad_metadata", f"source_type {source_type!r} is not one of {sorted(SOURCE_TYPES)}"
        )
    hierarchy = meta.get("hierarchy")
    return {
        "doc_id": doc_id,
        "path": path,
        "format": fmt,
        "source_type": source_type,
        "title": _str_or_none(meta.get("title")) or first_heading(text) or doc_id,
        "citation": _str_or_none(meta.get("citation")),
        "jurisdiction": _str_or_none(meta.get("jurisdiction")),
        "url": _str_or_none(meta.get(URL_KEYS[0]) or meta.get(URL_KEYS[1])),
        "effective_date": _str_or_none(meta.get("effective_date")),
        "retrieved": _str_or_none(meta.get("retrieved")),
        "hierarchy": [str(h) for h in hierarchy] if isinstance(hierarchy, list) else [],
        "metadata": json.dumps(meta, ensure_ascii=False, sort_keys=True, default=str),
        "text": text,
        "sha256": content_sha256(text),
    }


class _HtmlText(HTMLParser):
    """Visible text of an HTML page, one paragraph per block, headings kept as `#` lines."""

    BLOCKS = frozenset(
        [
            "p",
            "div",
            "li",
            "tr",
            "br",
            "section",
            "article",
            "header",
            "footer",
            "blockquote",
            "pre",
            "table",
            "ul",
            "ol",
            "dl",
            "dt",
            "dd",
        ]
    )
    SKIP = frozenset({"script", "style", "head", "noscript", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: str | None = None
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in self.SKIP:
            self._skip += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in self.BLOCKS or re.fullmatch(r"h[1-6]", tag):
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._in_title and self.title is None:
            self.title = " ".join(data.split()) or None
        if not self._skip:
            self.parts.append(data)

    def text(self) -> str:
        paragraphs = (" ".join(p.split()) for p in "".join(self.parts).split("\n\n"))
        return "\n\n".join(p for p in paragraphs if p and p.strip("# "))


def html_text_and_title(markup: str) -> tuple[str, str | None]:
    """Paragraph text of an HTML document (headings as Markdown lines) and its <title>."""
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    return parser.text(), parser.title


def pdf_text_and_title(path: Path) -> tuple[str, str | None]:
    """The text layer of a PDF, pages separated by blank lines and lines of a paragraph joined
    (groundwork/ingest/unwrap.py), and the /Title of its document info; no text layer is a
    rejection."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            raise Rejected("unreadable_pdf", "the PDF is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
        info = reader.metadata
        title = info.title if info is not None else None
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise Rejected("unreadable_pdf", f"not a readable PDF ({exc})") from exc
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise Rejected("empty", "the PDF has no text layer (scanned image?)")
    if not isinstance(title, str):  # a number or a dictionary there names nothing
        title = None
    return unwrapped_lines(text), " ".join((title or "").split()) or None


def text_file_documents(
    path: Path, rel: str, data: bytes, config: RunConfig, outer: Mapping[str, Any]
) -> FileResult:
    """Markdown, plain text or HTML: one document per file. Front matter wins over `outer` (the
    file's sidecar and folder defaults), which wins over an HTML page's own <title>."""
    raw = decoded_text(data)
    suffix = path.suffix.lower()
    if suffix in {".htm", ".html"}:
        text, title = html_text_and_title(raw)
        meta = layered_metadata({"title": title} if title else {}, outer)
        fmt = "html"
    else:
        front, body = front_matter_and_body(normalised_text(raw))
        meta = layered_metadata(outer, front)
        text = body
        fmt = "markdown" if suffix in {".md", ".markdown"} else "text"
    doc_id = _str_or_none(meta.get("doc_id")) or path.stem
    record = document_record(
        doc_id=doc_id, path=rel, fmt=fmt, text=normalised_text(text), meta=meta, config=config
    )
    return FileResult(documents=[record])


def pdf_documents(path: Path, rel: str, config: RunConfig, outer: Mapping[str, Any]) -> FileResult:
    """A PDF's text layer as one document; `outer` (sidecar, folder defaults) wins over the
    PDF's own /Title."""
    text, title = pdf_text_and_title(path)
    meta = layered_metadata({"title": title} if title else {}, outer)
    doc_id = _str_or_none(meta.get("doc_id")) or path.stem
    record = document_record(
        doc_id=doc_id, path=rel, fmt="pdf", text=normalised_text(text), meta=meta, config=config
    )
    return FileResult(documents=[record])


def mapped_value(record: Mapping[str, Any], field_name: str, mapping: ColumnMapping) -> Any:
    """The value of one document field in a collection record, through the column mapping."""
    spec = getattr(mapping, field_name)
    if spec is None:
        for column in DEFAULT_COLUMNS[field_name]:
            if record.get(column) not in (None, ""):
                return record[column]
        return None
    if spec in record:
        return record[spec]
    if TEMPLATE_FIELD.search(spec):
        missing = [n for n in TEMPLATE_FIELD.findall(spec) if n not in record]
        if missing:
            raise Rejected("bad_record", f"template for {field_name} names missing {missing}")
        return TEMPLATE_FIELD.sub(lambda m: str(record[m.group(1)]), spec)
    if any(c.isspace() for c in spec) or field_name in {"source_type", "jurisdiction"}:
        return spec  # a constant, such as --map source_type=regulation
    raise Rejected("bad_record", f"column {spec!r} (mapped to {field_name}) is not in the record")


def collection_records(path: Path, data: bytes) -> Iterator[tuple[str, Any]]:
    """(record label, record) pairs of a JSON / JSONL / Parquet passage collection."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # pyarrow raises several unrelated types for corrupt files
            raise Rejected("unreadable", f"not a readable Parquet file ({exc})") from exc
        for i, row in enumerate(table.to_pylist()):
            yield f"row {i + 1}", row
        return
    text = decoded_text(data)
    if suffix == ".json":
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as exc:
            raise Rejected("bad_json", f"{exc.msg} at line {exc.lineno}") from exc
        except RecursionError as exc:  # [[[[...]]]] thousands deep
            raise Rejected("bad_json", "nested deeper than a JSON reader can follow") from exc
        if isinstance(parsed, dict) and isinstance(parsed.get("data"), list):
            parsed = parsed["data"]
        if not isinstance(parsed, list):
            raise Rejected("bad_json", "expected a list of records")
        for i, row in enumerate(parsed):
            yield f"record {i + 1}", row
        return
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            yield f"line {lineno}", json.loads(line)
        except json.JSONDecodeError as exc:
            yield f"line {lineno}", Rejected("bad_json", exc.msg)
        except RecursionError:
            yield (
                f"line {lineno}",
                Rejected("bad_json", "nested deeper than a JSON reader can follow"),
            )


def collection_documents(path: Path, rel: str, data: bytes, config: RunConfig) -> FileResult:
    """Every passage of a collection as a document; bad records are rejected one by one."""
    result = FileResult()
    saw_text_column = False
    for label, row in collection_records(path, data):
        try:
            if isinstance(row, Rejected):
                raise row
            if not isinstance(row, dict):
                raise Rejected("bad_record", "record is not an object")
            text_value = mapped_value(row, "text", config.mapping)
            if text_value is None and not any(c in row for c in DEFAULT_COLUMNS["text"]):
                continue  # counted below: a collection with no text column at all
            saw_text_column = True
            doc_id = _str_or_none(mapped_value(row, "id", config.mapping))
            if doc_id is None:
                raise Rejected("bad_record", "no id (map one with --map id=COLUMN)")
            mapped = {f: mapped_value(row, f, config.mapping) for f in METADATA_FIELDS}
            meta = {k: v for k, v in row.items() if k not in DEFAULT_COLUMNS["text"]}
            meta.update({k: v for k, v in mapped.items() if v is not None})
            text = normalised_text(str(text_value or ""))
            record = document_record(
                doc_id=doc_id,
                path=rel,
                fmt="collection",
                text=text,
                meta=meta,
                config=config,
            )
            result.documents.append(record)
        except Rejected as exc:
            exc.record = label
            result.rejections.append(exc)
    if not saw_text_column:
        raise Rejected(
            "no_text_column",
            f"no record has a text column (tried {', '.join(DEFAULT_COLUMNS['text'])}; "
            "map one with --map text=COLUMN)",
        )
    return result


def file_documents(
    path: Path, rel: str, config: RunConfig, outer: Mapping[str, Any] | None = None
) -> FileResult:
    """Documents from any supported file; raises Rejected for a file that yields nothing usable.
    `outer` is the metadata its sidecar and folder defaults give (groundwork/ingest/metadata.py),
    which a text file or PDF takes under its own front matter; a collection's records carry
    their own."""
    outer = outer or {}
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise Rejected("unsupported", f"file type {suffix or '(none)'!r} is not supported")
    size = path.stat().st_size
    if size > config.max_file_bytes:
        raise Rejected("oversized", f"{size:,} bytes is over the {config.max_file_bytes:,} limit")
    if size == 0:
        raise Rejected("empty", "the file has no content")
    if suffix == ".pdf":
        return pdf_documents(path, rel, config, outer)
    data = path.read_bytes()
    if suffix in COLLECTION_SUFFIXES:
        return collection_documents(path, rel, data, config)
    return text_file_documents(path, rel, data, config, outer)
