"""Parsing each supported format, and rejecting each kind of bad file with a clear reason."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from groundwork.parsers import Rejected, file_documents, normalised_text
from schemas.config import ColumnMapping, RunConfig

from .conftest import FIXTURES, SAMPLE_CORPUS

CONFIG = RunConfig()


def parsed(path: Path, config: RunConfig = CONFIG):
    return file_documents(path, path.name, config)


def rejection(path: Path, config: RunConfig = CONFIG) -> Rejected:
    with pytest.raises(Rejected) as info:
        parsed(path, config)
    return info.value


def test_markdown_front_matter_becomes_metadata():
    doc = parsed(SAMPLE_CORPUS / "statutes" / "us-cfr-45-164.404.md").documents[0]
    assert doc["doc_id"] == "us-cfr-45-164.404"
    assert doc["citation"] == "45 CFR § 164.404"
    assert doc["source_type"] == "regulation"
    assert doc["url"] == "https://www.ecfr.gov/current/title-45/section-164.404"
    assert doc["text"].startswith("# § 164.404 Notification to individuals")
    assert len(doc["sha256"]) == 64


def test_plain_text_takes_its_name_as_id(tmp_path: Path):
    path = tmp_path / "memo.txt"
    path.write_text("Staff must lock their screens when they leave their desks.\r\n")
    doc = parsed(path).documents[0]
    assert (doc["doc_id"], doc["format"], doc["text"]) == (
        "memo",
        "text",
        "Staff must lock their screens when they leave their desks.",
    )


def test_html_keeps_headings_and_drops_scripts():
    doc = parsed(FIXTURES / "retention-policy.html").documents[0]
    assert doc["title"] == "Records retention policy"
    assert "## Retention periods" in doc["text"]
    assert "tracking()" not in doc["text"]
    assert "must retain incident records for six years" in doc["text"]


def test_pdf_text_layer_is_read():
    doc = parsed(FIXTURES / "breach-policy.pdf").documents[0]
    assert doc["format"] == "pdf"
    assert "must notify the privacy officer within one hour" in doc["text"]


def test_passage_collection_keeps_uuids_and_rejects_bad_records():
    result = parsed(FIXTURES / "passages.json")
    ids = [d["doc_id"] for d in result.documents]
    assert ids == ["6f1c2a7e-0b1d-4c55-9a9e-1d2f3a4b5c6d", "a3e5b7c9-1d2f-4a6b-8c0d-2e4f6a8b0c1d"]
    assert [(r.record, r.reason) for r in result.rejections] == [("record 3", "empty")]


def test_collection_mapping_with_template(tmp_path: Path):
    path = tmp_path / "rules.jsonl"
    rows = [
        {"uid": "r1", "body": "A firm must keep records for five years.", "doc": 3, "sec": "1.2"}
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n{not json\n")
    config = RunConfig(mapping=ColumnMapping(id="uid", text="body", citation="RULE {doc} {sec}"))
    result = parsed(path, config)
    assert result.documents[0]["doc_id"] == "r1"
    assert result.documents[0]["citation"] == "RULE 3 1.2"
    assert [(r.record, r.reason) for r in result.rejections] == [("line 2", "bad_json")]


def test_parquet_collection(tmp_path: Path):
    path = tmp_path / "p.parquet"
    pq.write_table(
        pa.table({"id": ["x"], "text": ["Each agency shall designate an officer."]}), path
    )
    assert parsed(path).documents[0]["doc_id"] == "x"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.md", b"", "empty"),
        ("blank.md", b"  \n\n ", "empty"),
        ("binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("latin1.md", "Le d\xe9biteur doit payer.".encode("latin-1"), "undecodable"),
        ("open.md", b"---\ntitle: x\nno closing line\n", "front_matter"),
        ("yaml.md", b"---\ntitle: [unclosed\n---\nBody text.\n", "front_matter"),
        ("list.md", b"---\n- a\n- b\n---\nBody text.\n", "front_matter"),
        ("nobody.md", b"---\ntitle: x\n---\n\n", "empty"),
        ("type.md", b"---\nsource_type: memo\n---\nStaff must comply.\n", "bad_metadata"),
        ("image.png", b"\x89PNG", "unsupported"),
        ("stats.json", b'{"documents": 3}', "bad_json"),
        ("manifest.jsonl", b'{"doc_id": "a", "words": 3}\n', "no_text_column"),
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "unreadable_pdf"),
    ],
)
def test_bad_files_are_rejected_with_a_reason(
    tmp_path: Path, name: str, content: bytes, reason: str
):
    path = tmp_path / name
    path.write_bytes(content)
    assert rejection(path).reason == reason


def test_oversized_file_is_rejected(tmp_path: Path):
    path = tmp_path / "big.md"
    path.write_text("word " * 100)
    exc = rejection(path, RunConfig(max_file_bytes=100))
    assert exc.reason == "oversized"
    assert "500 bytes" in exc.detail


def test_normalised_text_removes_bom_and_crlf():
    assert normalised_text("\ufeffa\r\nb\rc \n") == "a\nb\nc"
