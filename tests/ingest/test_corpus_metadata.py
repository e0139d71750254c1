"""Sidecars (`<file>.meta.yaml`) and folder defaults (`_defaults.yaml`): what they give a file,
in which order, and how a bad one is rejected without stopping the run
(groundwork/ingest/metadata.py, and the ingest stage that applies them)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from groundwork.ingest.listing import CorpusListing, corpus_listing
from groundwork.ingest.metadata import FileMetadata, corpus_metadata, is_metadata_file
from groundwork.ingest.parsers import Rejected, file_documents
from groundwork.warehouse.store import Warehouse
from schemas.config import RunConfig
from tasks.ingest import ingest
from tests.support.paths import FIXTURES

CONFIG = RunConfig(workers=1)
RULE = "Staff must lock their screens when they leave their desks.\n"


def write(corpus: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / rel).write_text(text)
    return corpus


def listing_of(corpus: Path) -> CorpusListing:
    """The corpus listed as a run lists it, with no warehouse to go by."""
    return corpus_listing(corpus, Warehouse(corpus.parent / "no-warehouse"))


@dataclass(frozen=True)
class Found:
    """What the metadata gives each listed document file, and the files it rejects (with the
    unused sidecars), by path, as ingest meets them."""

    applied: dict[str, FileMetadata]
    rejected: dict[str, Rejected]


def found_in(listing: CorpusListing) -> Found:
    metadata = corpus_metadata(listing, CONFIG)
    applied: dict[str, FileMetadata] = {}
    rejected: dict[str, Rejected] = {}
    for batch in listing.batches():
        for _, rel, _ in batch:
            meta = metadata.of(rel)
            if isinstance(meta, Rejected):
                rejected[rel] = meta
            elif meta is not None:
                applied[rel] = meta
    return Found(applied, rejected | metadata.unused)


def metadata_of(corpus: Path) -> Found:
    return found_in(listing_of(corpus))


def documents_of(corpus: Path) -> dict[str, dict]:
    """The document each file yields under its metadata, by path, as ingest parses it."""
    applied = metadata_of(corpus).applied
    return {
        rel: file_documents(corpus / rel, rel, CONFIG, meta.values).documents[0]
        for rel, meta in applied.items()
    }


def test_metadata_files_are_named_by_exact_name():
    assert is_metadata_file("_defaults.yaml") and is_metadata_file("a/b/_defaults.yaml")
    assert is_metadata_file("a/policy.pdf.meta.yaml")
    assert not is_metadata_file("defaults.yaml") and not is_metadata_file("a/policy.yaml")


def test_a_sidecar_gives_a_pdf_what_front_matter_would(tmp_path: Path):
    shutil.copy(FIXTURES / "breach-policy.pdf", tmp_path / "breach.pdf")
    write(
        tmp_path,
        {
            "breach.pdf.meta.yaml": (
                "doc_id: gsa-2180.2\ntitle: Breach response policy\nsource_type: policy\n"
                "jurisdiction: US-Federal\ncitation: GSA Order CIO 2180.2\n"
                "url: https://www.gsa.gov/2180.2\neffective_date: 2024-01-05\n"
            )
        },
    )
    docs = documents_of(tmp_path)
    assert list(docs) == ["breach.pdf"]  # the sidecar is no document
    doc = docs["breach.pdf"]
    assert {k: doc[k] for k in ("doc_id", "title", "source_type", "jurisdiction")} == {
        "doc_id": "gsa-2180.2",
        "title": "Breach response policy",
        "source_type": "policy",
        "jurisdiction": "US-Federal",
    }
    assert (doc["citation"], doc["url"], doc["effective_date"]) == (
        "GSA Order CIO 2180.2",
        "https://www.gsa.gov/2180.2",
        "2024-01-05",
    )


def test_defaults_apply_below_their_folder_and_the_nearest_wins_key_by_key(tmp_path: Path):
    write(
        tmp_path,
        {
            "_defaults.yaml": "source_type: statute\njurisdiction: US-Federal\ncitation: Root {stem}\n",
            "orders/_defaults.yaml": (
                'source_type: policy\ncitation: "GSA Order {stem}"\n'
                'url: "https://example.gov/{path}"\ntitle: "{name}"\n'
            ),
            "top.txt": RULE,
            "orders/2100.1.txt": RULE,
            "orders/old/2100.0.txt": RULE,
        },
    )
    docs = documents_of(tmp_path)
    fields = ("source_type", "jurisdiction", "citation", "url", "title")
    assert {rel: tuple(d[f] for f in fields) for rel, d in docs.items()} == {
        "top.txt": ("statute", "US-Federal", "Root top", None, "top"),
        "orders/2100.1.txt": (
            "policy",
            "US-Federal",
            "GSA Order 2100.1",
            "https://example.gov/orders/2100.1.txt",
            "2100.1.txt",
        ),
        "orders/old/2100.0.txt": (
            "policy",
            "US-Federal",
            "GSA Order 2100.0",
            "https://example.gov/orders/old/2100.0.txt",
            "2100.0.txt",
        ),
    }


def test_front_matter_beats_the_sidecar_which_beats_the_defaults(tmp_path: Path):
    write(
        tmp_path,
        {
            "_defaults.yaml": (
                "title: Defaults\njurisdiction: J-defaults\ncitation: C-{stem}\n"
                "source_type: statute\ndoc_id: d-{stem}\n"
            ),
            "a.md.meta.yaml": "title: Sidecar {stem}\njurisdiction: J-sidecar\nurl: https://s\n",
            "a.md": "---\ntitle: Front\nsource_url: https://f\n---\n" + RULE,
        },
    )
    doc = documents_of(tmp_path)["a.md"]
    assert (doc["title"], doc["jurisdiction"], doc["citation"], doc["source_type"]) == (
        "Front",
        "J-sidecar",
        "C-a",
        "statute",
    )
    assert (doc["url"], doc["doc_id"]) == ("https://f", "d-a")


def test_a_sidecar_is_taken_as_written_and_no_template(tmp_path: Path):
    write(tmp_path, {"a.txt": RULE, "a.txt.meta.yaml": "title: Rule {stem}\n"})
    assert documents_of(tmp_path)["a.txt"]["title"] == "Rule {stem}"


def test_collections_take_no_folder_defaults(tmp_path: Path):
    shutil.copy(FIXTURES / "passages.json", tmp_path / "passages.json")
    write(tmp_path, {"_defaults.yaml": "source_type: policy\n"})
    assert metadata_of(tmp_path).applied["passages.json"].values == {}


BAD_YAML = {
    "invalid YAML": ("title: [never closed\n", "is not valid YAML"),
    "aliases": ("a: &x [1]\nb: *x\n", "uses YAML aliases"),
    "not a mapping": ("- a list\n", "is not a key: value mapping"),
    "unknown source_type": ("source_type: law\n", "source_type 'law' is not one of"),
    "NUL bytes": ("title: a\x00b\n", "contains NUL bytes"),
}


@pytest.mark.parametrize("case", BAD_YAML)
def test_a_bad_sidecar_rejects_its_file_naming_it(tmp_path: Path, case: str):
    content, said = BAD_YAML[case]
    write(tmp_path, {"a.txt": RULE, "a.txt.meta.yaml": content, "b.txt": RULE})
    found = metadata_of(tmp_path)
    ((rel, why),) = found.rejected.items()
    assert (rel, why.reason) == ("a.txt", "bad_sidecar")
    assert why.detail.startswith("a.txt.meta.yaml") and said in why.detail
    assert list(found.applied) == ["b.txt"]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        *BAD_YAML.values(),
        ('citation: "Order {number}"\n', "citation names {number}, not one of {name}, {stem}"),
        ("doc_id: one-id\n", "doc_id must name one of {name}, {stem}, {path}"),
    ],
)
def test_bad_defaults_reject_every_file_below_naming_them(tmp_path: Path, content, said):
    write(
        tmp_path,
        {"orders/_defaults.yaml": content, "orders/a.txt": RULE, "orders/b/c.txt": RULE},
    )
    write(tmp_path, {"top.txt": RULE})
    found = metadata_of(tmp_path)
    assert {rel: why.reason for rel, why in found.rejected.items()} == {
        "orders/a.txt": "bad_defaults",
        "orders/b/c.txt": "bad_defaults",
    }
    detail = found.rejected["orders/a.txt"].detail
    assert detail.startswith("orders/_defaults.yaml") and said in detail
    assert list(found.applied) == ["top.txt"]


def test_a_linked_sidecar_is_not_followed_and_rejects_its_file(tmp_path: Path):
    corpus = write(tmp_path / "corpus", {"a.txt": RULE})
    (tmp_path / "secret.yaml").write_text("title: read from outside\n")
    (corpus / "a.txt.meta.yaml").symlink_to(tmp_path / "secret.yaml")
    listing = listing_of(corpus)
    assert listing.skipped["a.txt.meta.yaml"].reason == "symlink"  # its own row, as any link
    why = found_in(listing).rejected["a.txt"]
    assert (why.reason, why.detail) == (
        "bad_sidecar",
        "a.txt.meta.yaml: a symbolic link: links are not followed; copy the file in",
    )


def test_a_metadata_file_that_changed_since_the_fingerprint_rejects_its_files(tmp_path: Path):
    write(tmp_path, {"a.txt": RULE, "_defaults.yaml": "source_type: policy\n"})
    listing = listing_of(tmp_path)
    (tmp_path / "_defaults.yaml").write_text("source_type: statute\n")
    why = found_in(listing).rejected["a.txt"]
    assert (why.reason, why.detail) == (
        "changed_while_read",
        "_defaults.yaml changed while the run read it: run again",
    )


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"gone.pdf.meta.yaml": "title: T\n"}, "gone.pdf, the file it describes, is not in"),
        ({"p.json": "[]", "p.json.meta.yaml": "title: T\n"}, "p.json takes no sidecar"),
    ],
)
def test_a_sidecar_that_describes_nothing_is_rejected_itself(tmp_path: Path, files, said):
    write(tmp_path, files)
    ((rel, why),) = metadata_of(tmp_path).rejected.items()
    assert rel.endswith(".meta.yaml") and why.reason == "unused_sidecar" and said in why.detail


def _ingested(corpus: Path, warehouse: Warehouse, run_id: str) -> dict[str, tuple]:
    """Ingest the corpus as a run does; the active documents' path -> (doc_id, title, type)."""
    ingest(warehouse, corpus_listing(corpus, warehouse), run_id, CONFIG)
    with warehouse.connect(read_only=True) as con:
        found = con.execute(
            "SELECT path, doc_id, title, source_type FROM documents WHERE status = 'active'"
        ).fetchall()
    return {path: tuple(rest) for path, *rest in found}


def _rejections(warehouse: Warehouse, run_id: str) -> dict[str, str]:
    with warehouse.connect(read_only=True) as con:
        found = con.execute(
            "SELECT path, reason FROM rejected_documents WHERE run_id = ?", [run_id]
        ).fetchall()
    return dict(found)


def test_ingest_applies_metadata_rejects_bad_metadata_and_goes_on(tmp_path: Path):
    corpus, warehouse = tmp_path / "corpus", Warehouse(tmp_path / "wh")
    write(
        corpus,
        {
            "good.txt": RULE,
            "policies/_defaults.yaml": "source_type: policy\n",
            "policies/screens.txt": RULE,
            "policies/screens.txt.meta.yaml": "title: Screens\n",
            "broken/_defaults.yaml": "source_type: [never closed\n",
            "broken/a.txt": RULE,
            "bad.txt": RULE,
            "bad.txt.meta.yaml": "- not a mapping\n",
            "orphan.pdf.meta.yaml": "title: T\n",
        },
    )
    with warehouse.connect():
        pass
    documents = _ingested(corpus, warehouse, "r1")
    assert documents == {
        "good.txt": ("good", "good", "regulation"),
        "policies/screens.txt": ("screens", "Screens", "policy"),
    }
    assert _rejections(warehouse, "r1") == {  # no `unsupported` row for a metadata file
        "broken/a.txt": "bad_defaults",
        "bad.txt": "bad_sidecar",
        "orphan.pdf.meta.yaml": "unused_sidecar",
    }


def test_editing_metadata_parses_again_the_files_it_applies_to(tmp_path: Path):
    corpus, warehouse = tmp_path / "corpus", Warehouse(tmp_path / "wh")
    write(corpus, {"a/_defaults.yaml": "source_type: policy\n", "a/x.txt": RULE, "y.txt": RULE})
    with warehouse.connect():
        pass
    assert _ingested(corpus, warehouse, "r1")["a/x.txt"] == ("x", "x", "policy")
    write(corpus, {"a/x.txt.meta.yaml": "title: X\n"})  # a new sidecar
    assert _ingested(corpus, warehouse, "r2")["a/x.txt"] == ("x", "X", "policy")
    write(corpus, {"a/_defaults.yaml": "source_type: statute\n"})  # edited defaults
    assert _ingested(corpus, warehouse, "r3")["a/x.txt"] == ("x", "X", "statute")
    (corpus / "a" / "x.txt.meta.yaml").unlink()  # a removed sidecar
    (corpus / "a" / "_defaults.yaml").write_text("source_type: [broken\n")
    assert _ingested(corpus, warehouse, "r4")["a/x.txt"] == ("x", "X", "statute")  # kept
    assert _rejections(warehouse, "r4") == {"a/x.txt": "bad_defaults"}
    (corpus / "a" / "_defaults.yaml").unlink()
    assert _ingested(corpus, warehouse, "r5")["a/x.txt"] == ("x", "x", "regulation")
    with warehouse.connect(read_only=True) as con:
        runs = dict(con.execute("SELECT path, last_run FROM corpus_files").fetchall())
    assert runs == {"a/x.txt": "r5", "y.txt": "r1"}  # y.txt was never parsed again


def test_the_fingerprint_takes_in_metadata_files(tmp_path: Path):
    def fingerprint() -> str:
        return listing_of(tmp_path).digest

    write(tmp_path, {"a.txt": RULE, "a.txt.meta.yaml": "title: A\n"})
    first = fingerprint()
    assert fingerprint() == first
    write(tmp_path, {"a.txt.meta.yaml": "title: B\n"})
    assert fingerprint() != first
