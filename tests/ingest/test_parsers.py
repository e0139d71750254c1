"""Parsing each supported format, and rejecting each kind of bad file with a clear reason."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pypdf import PdfWriter
from pypdf.generic import DictionaryObject, NameObject

from groundwork.ingest.parsers import Rejected, file_documents, normalised_text
from schemas.config import ColumnMapping, RunConfig
from tests.support.paths import FIXTURES, SAMPLE_CORPUS

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


def test_pdf_lines_of_a_paragraph_are_joined_and_its_heading_kept():
    """The fixture's text layer breaks its one sentence after "within one hour"."""
    doc = parsed(FIXTURES / "breach-policy.pdf").documents[0]
    assert doc["text"] == (
        "Breach response policy\n"
        "Every employee must notify the privacy officer within one hour of discovering a "
        "suspected breach of personal information."
    )


def _titled_pdf(path: Path, title: str | None) -> Path:
    """The fixture PDF, with /Title in its document info when one is given."""
    writer = PdfWriter(clone_from=FIXTURES / "breach-policy.pdf")
    if title is not None:
        writer.add_metadata({"/Title": title})
    writer.write(path)
    return path


def test_a_pdf_title_names_the_document(tmp_path: Path):
    path = _titled_pdf(tmp_path / "breach.pdf", "  Breach Response Policy (2024) ")
    assert parsed(path).documents[0]["title"] == "Breach Response Policy (2024)"


def test_a_pdf_without_a_title_is_named_as_before(tmp_path: Path):
    path = _titled_pdf(tmp_path / "breach.pdf", None)
    assert parsed(path).documents[0]["title"] == "breach"  # no heading line: its doc_id


def test_a_pdf_title_that_is_not_text_names_nothing(tmp_path: Path):
    writer = PdfWriter(clone_from=FIXTURES / "breach-policy.pdf")
    writer.add_metadata({"/Author": "GSA"})
    info = writer._info.get_object()  # add_metadata makes every value a string; a file need not
    info[NameObject("/Title")] = DictionaryObject({NameObject("/A"): NameObject("/B")})
    writer.write(tmp_path / "odd.pdf")
    assert parsed(tmp_path / "odd.pdf").documents[0]["title"] == "odd"


def test_sidecar_and_defaults_titles_win_over_the_pdf_title(tmp_path: Path):
    path = _titled_pdf(tmp_path / "breach.pdf", "Microsoft Word - breach.docx")
    outer = {"title": "Breach response policy", "source_type": "policy"}
    doc = file_documents(path, path.name, CONFIG, outer).documents[0]
    assert (doc["title"], doc["source_type"]) == ("Breach response policy", "policy")


def test_front_matter_wins_over_outer_metadata_and_outer_over_html_title(tmp_path: Path):
    page = tmp_path / "page.html"
    page.write_text("<html><head><title>Own</title></head><body><p>Staff must wait.</p></body>")
    note = tmp_path / "note.md"
    note.write_text("---\ntitle: Front\nsource_url: https://front.example\n---\nStaff must wait.\n")
    outer = {"title": "Outer", "url": "https://outer.example", "citation": "C-1"}
    html = file_documents(page, page.name, CONFIG, outer).documents[0]
    markdown = file_documents(note, note.name, CONFIG, outer).documents[0]
    assert (html["title"], html["url"]) == ("Outer", "https://outer.example")
    assert (markdown["title"], markdown["url"], markdown["citation"]) == (
        "Front",
        "https://front.example",  # front matter's source_url is the url key
        "C-1",
    )


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
