"""A corpus listed twice in one process (the CLI while Prefect's server starts, then the
flow): the second time reads only the files whose size or modification time changed since."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import groundwork.ingest.listing as listing
from groundwork.ingest.listing import (
    CorpusListing,
    FileDigest,
    corpus_listing,
    file_digest,
    hand_over,
    listing_taken,
    recent_listing,
)
from groundwork.runtime.warmup import digests_taken
from groundwork.warehouse.store import Warehouse


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files hashed, by path, as they are read."""
    read: list[str] = []

    def counted(path: str) -> str:
        read.append(Path(path).name)
        return file_digest(path)

    monkeypatch.setattr(listing, "file_digest", counted)
    return read


def digests(listing: CorpusListing) -> dict[str, FileDigest]:
    return {rel: digest for batch in listing.batches() for _, rel, digest in batch}


def test_the_second_listing_reads_only_what_changed(tmp_path: Path, hashed: list[str]):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("a.md", "b.md", "c.md"):
        (corpus / name).write_text(f"# {name}\n\nThe entity shall act.\n", encoding="utf-8")
    warehouse = Warehouse(tmp_path / "wh")  # no warehouse yet: nothing recorded to go by
    first = corpus_listing(corpus, warehouse)
    assert sorted(hashed) == ["a.md", "b.md", "c.md"]

    hashed.clear()
    changed = corpus / "b.md"
    changed.write_text("# b.md\n\nThe entity shall not act.\n", encoding="utf-8")
    stat = changed.stat()
    os.utime(changed, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    second = corpus_listing(corpus, warehouse)
    assert hashed == ["b.md"]
    before, after = digests(first), digests(second)
    assert after["a.md"] == before["a.md"]
    assert after["b.md"].sha256 == file_digest(str(changed))
    assert after["b.md"].sha256 != before["b.md"].sha256
    assert second.digest != first.digest


def test_another_corpus_is_read_whole(tmp_path: Path, hashed: list[str]):
    warehouse = Warehouse(tmp_path / "wh")
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.md").write_text("The entity shall act.\n", encoding="utf-8")
    corpus_listing(tmp_path / "one", warehouse)
    corpus_listing(tmp_path / "two", warehouse)
    assert hashed == ["a.md", "a.md"]


def test_the_second_listing_leaves_the_recorded_stats_unread(
    tmp_path: Path, hashed: list[str], monkeypatch: pytest.MonkeyPatch
):
    """The listing taken first covers every file then listed: the warehouse's recorded stats
    are not read again, and a file added in between is hashed."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("The entity shall act.\n", encoding="utf-8")
    warehouse = Warehouse(tmp_path / "wh")
    loads: list[Warehouse] = []
    monkeypatch.setattr(
        listing, "recorded_digests", lambda wh: loads.append(wh) or (row for row in ())
    )
    corpus_listing(corpus, warehouse)
    (corpus / "new.md").write_text("The entity shall not act.\n", encoding="utf-8")
    hashed.clear()
    second = corpus_listing(corpus, warehouse)
    assert loads == [warehouse]
    assert hashed == ["new.md"]
    assert list(digests(second)) == ["a.md", "new.md"]


def test_the_warmup_does_not_list_a_corpus_the_cli_has_just_listed(tmp_path: Path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# a\n\nThe entity shall act.\n", encoding="utf-8")
    warehouse = Warehouse(tmp_path / "wh")
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.md").write_text("# b\n\nThe entity shall act.\n", encoding="utf-8")
    assert not listing_taken(corpus, warehouse)
    first = corpus_listing(corpus, warehouse)  # the CLI's check for an unchanged run
    assert listing_taken(corpus, warehouse)
    digests_taken(corpus, warehouse)
    assert listing._TAKEN[listing._listing_key(corpus, warehouse)] is first
    digests_taken(other, warehouse)  # a corpus not listed yet is listed
    assert listing_taken(other, warehouse) and not listing_taken(corpus, warehouse)


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The corpora walked, as the listing walks them."""
    walked: list[Path] = []
    entries = listing.corpus_entries

    def counted(corpus: Path):
        walked.append(corpus)
        return entries(corpus)

    monkeypatch.setattr(listing, "corpus_entries", counted)
    return walked


def test_the_flow_takes_the_listing_the_cli_handed_over_once(tmp_path: Path, walks: list[Path]):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# a\n\nThe entity shall act.\n", encoding="utf-8")
    warehouse = Warehouse(tmp_path / "wh")
    checked = corpus_listing(corpus, warehouse)  # the CLI's check, which found a run to do
    hand_over(checked, corpus, warehouse)
    assert recent_listing(corpus, warehouse) is checked  # the flow's, seconds later
    assert walks == [corpus]
    (corpus / "b.md").write_text("# b\n\nThe entity shall not act.\n", encoding="utf-8")
    again = recent_listing(corpus, warehouse)  # a second run in the process: walked anew
    assert walks == [corpus, corpus] and list(digests(again)) == ["a.md", "b.md"]


def test_a_listing_not_handed_over_or_too_old_is_taken_again(
    tmp_path: Path, walks: list[Path], monkeypatch: pytest.MonkeyPatch
):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# a\n\nThe entity shall act.\n", encoding="utf-8")
    warehouse = Warehouse(tmp_path / "wh")
    listed = corpus_listing(corpus, warehouse)  # listed, not handed over (the warm-up's)
    assert recent_listing(corpus, warehouse) is not listed
    handed = corpus_listing(corpus, warehouse)
    hand_over(handed, corpus, warehouse)
    monkeypatch.setattr(listing, "RECENT_S", 0.0)  # a run that waited for its turn
    assert recent_listing(corpus, warehouse) is not handed
    assert len(walks) == 4
