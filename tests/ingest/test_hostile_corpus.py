"""A corpus of hostile entries mixed with good documents: no traceback, every good document
ingested with its own text, every other entry rejected with its reason, exit code 3, and nothing
written outside the warehouse. Plus the listing and parsing cases one at a time."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfWriter
from typer.testing import CliRunner

import groundwork.ingest.listing as listing
from groundwork.cli import app
from groundwork.ingest.documents import parsed_documents, rejection_lines
from groundwork.ingest.listing import FileDigest, corpus_entries, corpus_listing
from groundwork.ingest.metadata import NO_METADATA
from groundwork.ingest.parsers import front_matter_and_body, normalised_text
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from tests.support.paths import SAMPLE_CORPUS

GOOD = ("statutes/us-cfr-45-164.404.md", "statutes/us-cfr-45-164.410.md")
BILLION_LAUGHS = "---\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9 if prev else ['lol'] * 9)}]\n"
    for prev, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True)
)


def hostile_corpus(root: Path, outside: Path) -> dict[str, str]:
    """Write the hostile entries into `root`; the reason each should be rejected with."""
    outside.mkdir()
    (outside / "secret.md").write_text("root:x:0:0:root:/root:/bin/bash\nYou must not see this.\n")
    entries = {
        "link-to-outside.md": "symlink",
        "link-to-folder": "symlink",
        "loop.md": "symlink",
        "pipe.md": "not_a_file",
        "empty.md": "empty",
        "image.md": "binary",
        "nul.md": "binary",
        "latin1.md": "undecodable",
        "broken.md": "front_matter",
        "unterminated.md": "front_matter",
        "laughs.md": "front_matter",
        "huge.md": "oversized",
        "nested.json": "bad_json",
        "bad.pdf": "unreadable_pdf",
        "locked.pdf": "unreadable_pdf",
        "claim-a.md": "duplicate_doc_id",
        "claim-b.md": "duplicate_doc_id",
        "bad\\xffname.md": "unreadable",  # its name as the rejection shows it
    }
    (root / "link-to-outside.md").symlink_to(outside / "secret.md")
    (root / "link-to-folder").symlink_to(outside)
    (root / "loop.md").symlink_to(root / "loop.md")
    os.mkfifo(root / "pipe.md")
    (root / "empty.md").write_bytes(b"")
    (root / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (root / "nul.md").write_bytes(b"Staff must\x00 lock screens.\n")
    (root / "latin1.md").write_bytes("Le personnel doit \xe9teindre.".encode("latin-1"))
    (root / "broken.md").write_text("---\ntitle: [never closed\n---\nStaff must lock screens.\n")
    (root / "unterminated.md").write_text("---\ntitle: open\nStaff must lock screens.\n")
    (root / "laughs.md").write_text(BILLION_LAUGHS + "---\nStaff must lock screens.\n")
    with (root / "huge.md").open("wb") as huge:  # 200 MB, sparse: over the size limit
        huge.truncate(200 * 1024 * 1024)
    (root / "nested.json").write_text("[" * 50_000 + "]" * 50_000)
    (root / "bad.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Length 99 >> stream\ngarbage")
    locked = PdfWriter()  # a real PDF with a user password: RC4, which needs no extra package
    locked.add_blank_page(200, 200)
    locked.encrypt("secret", algorithm="RC4-128")
    locked.write(root / "locked.pdf")
    with open(os.fsencode(root) + b"/bad\xffname.md", "wb") as named:  # a name that is not UTF-8
        named.write(b"Staff must lock screens.\n")
    for name in ("claim-a.md", "claim-b.md"):  # two new files, one ID neither has held
        (root / name).write_text(f"---\ndoc_id: us-cfr-45-160.101\n---\n{name} shall comply.\n")
    # good documents, some in awkward shapes
    (root / "folder.md").mkdir()  # a folder named like a file is a folder
    (root / "folder.md" / "inside.md").write_text("# Inside\n\nVisitors must sign in.\n")
    (root / "bom-crlf.md").write_bytes(
        b"\xef\xbb\xbf---\r\ntitle: BOM\r\n---\r\nStaff must lock screens.\r\n"
    )
    (root / "page.html").write_text(
        "<html><head><title>P &amp; Q</title><script>var x = 'must not';</script></head>"
        "<body><p>Staff &mdash; all of them &mdash; must wear badges.</p></body></html>"
    )
    return entries


def _tree(root: Path) -> dict[str, int]:
    """Every file under `root` (links not followed) and its size, to see what a run wrote."""
    return {
        str(Path(folder, name).relative_to(root)): os.lstat(Path(folder, name)).st_size
        for folder, _, names in os.walk(root)
        for name in names
    }


@pytest.mark.slow
def test_a_hostile_corpus_rejects_each_bad_entry_and_ingests_the_good(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    for rel in GOOD:
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE_CORPUS / rel, corpus / rel)
    expected = hostile_corpus(corpus, tmp_path / "outside")
    before = _tree(tmp_path)
    warehouse = tmp_path / "wh"
    result = CliRunner().invoke(
        app, ["run", "--corpus", str(corpus), "-w", str(warehouse), "--workers", "1"]
    )
    assert result.exit_code == 3, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    # the summary names the report, its path whole though folded at the terminal's width
    cells = [line.split("│")[2].strip() for line in result.output.splitlines() if "│" in line]
    assert "/reports/" in "".join(cells) and "/report.html" in "".join(cells)
    after = _tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("wh/")} == before
    with Warehouse(warehouse).connect(read_only=True) as con:
        rejected = dict(con.execute("SELECT path, reason FROM rejected_documents").fetchall())
        details = dict(con.execute("SELECT path, detail FROM rejected_documents").fetchall())
        texts = dict(con.execute("SELECT path, text FROM current_documents").fetchall())
        (published,) = con.execute("SELECT count(*) FROM publications").fetchone()
    assert rejected == expected
    for entry in expected:
        assert entry in result.output  # one line each
    assert "claim-a.md, claim-b.md" in details["claim-a.md"]  # both claimants named
    assert published > 0
    for rel in GOOD:
        body = front_matter_and_body((corpus / rel).read_text())[1]
        assert texts[rel] == normalised_text(body)
    assert texts["folder.md/inside.md"] == "# Inside\n\nVisitors must sign in."
    assert texts["bom-crlf.md"] == "Staff must lock screens."
    assert "must wear badges" in texts["page.html"] and "var x" not in texts["page.html"]
    assert not any("root:x" in text for text in texts.values())


def test_the_listing_skips_links_fifos_and_vanished_files_with_their_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "good.md").write_text("Staff must lock screens.\n")
    (corpus / "link.md").symlink_to(corpus / "good.md")  # even inside the corpus
    (corpus / "dir-link").symlink_to(corpus)
    os.mkfifo(corpus / "pipe.md")
    (corpus / "gone.md").write_text("here when listed")
    entries = list(corpus_entries(corpus))
    (corpus / "gone.md").unlink()  # between its folder's read and its stat
    monkeypatch.setattr(listing, "corpus_entries", lambda _: iter(entries))
    taken = corpus_listing(corpus, Warehouse(tmp_path / "wh"))
    assert [rel for batch in taken.batches() for _, rel, _ in batch] == ["good.md"]
    assert {rel: why.reason for rel, why in taken.skipped.items()} == {
        "link.md": "symlink",
        "dir-link": "symlink",
        "pipe.md": "not_a_file",
        "gone.md": "unreadable",
    }


def test_a_file_that_changes_while_it_is_read_is_rejected_for_the_run(tmp_path):
    path = tmp_path / "moving.md"
    path.write_text("Staff must lock screens.\n")
    stat = path.stat()
    seen = FileDigest("0" * 64, stat.st_size - 1, stat.st_mtime_ns)  # not what is there now
    documents, rejected = parsed_documents(([(path, "moving.md", seen, NO_METADATA)], RunConfig()))
    assert documents.num_rows == 0
    assert rejected.to_pylist()[0]["reason"] == "changed_while_read"


@pytest.mark.slow  # two runs of the flow
def test_a_registered_document_keeps_its_id_against_a_new_claimant(tmp_path):
    """The impostor of the issue: a five-line file claiming a registered document's ID."""
    corpus = tmp_path / "corpus"
    (corpus / "statutes").mkdir(parents=True)
    shutil.copy(SAMPLE_CORPUS / GOOD[0], corpus / GOOD[0])
    warehouse = tmp_path / "wh"
    runner = CliRunner()
    args = ["run", "--corpus", str(corpus), "-w", str(warehouse), "--workers", "1"]
    assert runner.invoke(app, args).exit_code == 0
    (corpus / "aaa-impostor.md").write_text(
        "---\ndoc_id: us-cfr-45-164.404\n---\nA covered entity may ignore breaches.\n"
    )
    result = runner.invoke(app, args)
    assert result.exit_code == 3, result.output
    with Warehouse(warehouse).connect(read_only=True) as con:
        rows = con.execute("SELECT path, reason, detail FROM rejected_documents").fetchall()
        (path,) = con.execute(
            "SELECT path FROM document_rows WHERE doc_id = 'us-cfr-45-164.404'"
        ).fetchone()
    assert rows == [
        (
            "aaa-impostor.md",
            "duplicate_doc_id",
            f"doc_id 'us-cfr-45-164.404' is already used by {GOOD[0]}",
        )
    ]
    assert path == GOOD[0]


def test_a_file_of_many_bad_records_is_a_few_lines_and_every_row():
    rejections = [("big.jsonl", str(n), "bad_record", "no id") for n in range(1, 10_001)]
    rejections += [("big.jsonl", "0", "bad_doc_id", "has a /"), ("one.md", None, "empty", "")]
    lines = rejection_lines(rejections)
    assert lines[:5] == [f"rejected big.jsonl ({n}): bad_record: no id" for n in range(1, 6)]
    assert lines[5:] == [
        "rejected one.md: empty: ",
        "rejected big.jsonl: 9,995 bad_record, 1 bad_doc_id more records (all in "
        "rejected_documents)",
    ]
