"""Ingest's shard pass: its workers chunk and extract what they parse, and the chunk and extract
stages adopt that only when it is exactly their own work; in every other case they compute from
DuckDB as before, and the outputs are the same either way.

Which one happened shows in the chunk parts' row groups: the pass writes one per batch of files
(here, all of a tiny corpus in one), the chunk stage one per `batch_docs` documents (here one)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import groundwork.ingest.documents as ingest_documents
from groundwork.warehouse.store import Warehouse
from tests.support.paths import SAMPLE_CORPUS
from tests.support.runs import QUIET, flow_run
from tests.support.warehouses import rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]

ONE_PER_GROUP = QUIET.model_copy(update={"batch_docs": 1})  # the stage's row group: a document
STATUTES = ("us-cfr-45-164.404.md", "us-cfr-45-164.406.md", "us-cfr-45-164.410.md")
OUTPUTS = (
    "SELECT * EXCLUDE (run_id) FROM current_chunks",
    "SELECT requirement_id, doc_id, char_start, char_end, exact_quote FROM current_requirements",
)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """Three statutes of the sample corpus."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in STATUTES:
        shutil.copy(SAMPLE_CORPUS / "statutes" / name, folder / name)
    return folder


def own_chunks(warehouse: Path, run_id: str) -> tuple[set[str], int]:
    """The documents of the chunks a run computed itself, and their row groups."""
    parts = Warehouse(warehouse).parts("chunks", run_id)
    groups = sum(pq.ParquetFile(p).num_row_groups for p in parts)
    return set(pq.read_table(parts).column("doc_id").to_pylist()), groups


def outputs(warehouse: Path) -> list[list[tuple]]:
    """The published chunks and requirements (IDs included), sorted: what adopting must not
    change."""
    return [sorted(rows(warehouse, sql)) for sql in OUTPUTS]


def leftovers(warehouse: Path) -> list[Path]:
    """Staging folders left in the warehouse: a pass no stage took must not stay behind."""
    return Warehouse(warehouse).leftovers()


def claimants(corpus: Path) -> None:
    """Two new files claiming one doc_id: the merge rejects both."""
    claimant = '---\ndoc_id: "shared"\n---\nEach covered entity shall keep a log of every breach.\n'
    for name in ("a.md", "b.md"):
        (corpus / name).write_text(claimant)


def test_the_stages_adopt_the_pass_and_a_forced_stage_computes_the_same(corpus, tmp_path):
    warehouse = tmp_path / "wh"
    first = flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    assert first.status == "published" and first.requirements > 0
    documents = {name.removesuffix(".md") for name in STATUTES}
    assert own_chunks(warehouse, first.run_id) == (documents, 1)  # the pass's one shard
    assert leftovers(warehouse) == []
    adopted = outputs(warehouse)
    again = flow_run(corpus, warehouse, config=ONE_PER_GROUP, from_stage="extract")
    assert again.run_id == first.run_id and outputs(warehouse) == adopted
    again = flow_run(corpus, warehouse, config=ONE_PER_GROUP, from_stage="chunk")
    assert own_chunks(warehouse, first.run_id) == (documents, 3)  # chunked by the stage
    assert outputs(warehouse) == adopted
    assert (again.chunks, again.requirements) == (first.chunks, first.requirements)


def test_a_failed_extract_leaves_no_pass_behind_and_resuming_computes_it(
    corpus, tmp_path, monkeypatch
):
    cold = flow_run(corpus, tmp_path / "cold", config=ONE_PER_GROUP)
    warehouse = tmp_path / "wh"
    monkeypatch.setenv("GROUNDWORK_FAILPOINT", "fail:commit:candidates")
    with pytest.raises(RuntimeError, match="failpoint commit:candidates"):
        flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    assert leftovers(warehouse) == []
    monkeypatch.delenv("GROUNDWORK_FAILPOINT")
    resumed = flow_run(corpus, warehouse, config=ONE_PER_GROUP, from_stage="extract")
    assert resumed.status == "published"
    assert outputs(warehouse) == outputs(tmp_path / "cold")
    assert resumed.requirements == cold.requirements


def test_a_rejected_duplicate_doc_id_makes_the_stage_chunk_without_it(corpus, tmp_path):
    claimants(corpus)
    warehouse = tmp_path / "wh"
    run = flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    assert run.rejected == 2
    documents, groups = own_chunks(warehouse, run.run_id)
    assert documents == {name.removesuffix(".md") for name in STATUTES} and groups == 3
    assert leftovers(warehouse) == []


def test_a_duplicate_doc_id_in_batches_of_its_own_is_dropped_from_the_pass_the_stages_adopt(
    corpus, tmp_path, monkeypatch
):
    """Each file its own batch, so the pass chunks both claimants; the merge rejects them, and the
    stages adopt the rest of the pass (a row group per statute's batch, where the stage would
    write one for all three) with the same outputs as the stage computing it."""
    monkeypatch.setattr(ingest_documents, "FILES_PER_BATCH", 1)
    claimants(corpus)
    warehouse = tmp_path / "wh"
    run = flow_run(corpus, warehouse, config=QUIET)
    assert run.rejected == 2
    statutes = {name.removesuffix(".md") for name in STATUTES}
    assert own_chunks(warehouse, run.run_id) == (statutes, 3)
    assert leftovers(warehouse) == []
    adopted = outputs(warehouse)
    flow_run(corpus, warehouse, config=QUIET, from_stage="chunk")
    assert own_chunks(warehouse, run.run_id) == (statutes, 1)  # chunked by the stage
    assert outputs(warehouse) == adopted


def test_a_new_file_taking_a_known_doc_id_is_rejected_and_chunked_by_no_stage(corpus, tmp_path):
    warehouse = tmp_path / "wh"
    flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    known = STATUTES[0].removesuffix(".md")
    (corpus / "copy.md").write_text(f'---\ndoc_id: "{known}"\n---\nA covered entity shall act.\n')
    second = flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    assert second.status == "published" and second.rejected == 1
    # reused: nothing changed; the pass's part is adopted without the claimant's rows
    assert own_chunks(warehouse, second.run_id) == (set(), 0)


def test_a_record_edited_in_a_collection_is_the_only_document_chunked_again(corpus, tmp_path):
    records = [
        {"doc_id": f"rule-{n}", "text": f"A covered entity shall retain record {n} for six years."}
        for n in range(3)
    ]
    collection = corpus / "rules.jsonl"
    collection.write_text("".join(json.dumps(r) + "\n" for r in records))
    warehouse = tmp_path / "wh"
    flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    records[1]["text"] = "A covered entity shall retain record 1 for ten years."
    collection.write_text("".join(json.dumps(r) + "\n" for r in records))
    second = flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    assert second.status == "published" and second.changed_documents == 1
    assert own_chunks(warehouse, second.run_id) == ({"rule-1"}, 1)
    cold = tmp_path / "cold"
    flow_run(corpus, cold, config=ONE_PER_GROUP)
    quotes = "SELECT doc_id, char_start, char_end, exact_quote FROM current_requirements"
    for sql in (OUTPUTS[0], quotes):
        assert sorted(rows(warehouse, sql)) == sorted(rows(cold, sql)), sql


def test_a_changed_chunk_size_chunks_every_document_again(corpus, tmp_path):
    warehouse = tmp_path / "wh"
    flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    edited = corpus / STATUTES[0]
    edited.write_text(edited.read_text().replace("60 calendar days", "30 calendar days"))
    smaller = ONE_PER_GROUP.model_copy(update={"chunk_max_chars": 400})
    second = flow_run(corpus, warehouse, config=smaller)
    documents = {name.removesuffix(".md") for name in STATUTES}
    assert own_chunks(warehouse, second.run_id) == (documents, 3)  # the stage's, not the pass's
    cold = tmp_path / "cold"
    flow_run(corpus, cold, config=smaller)
    assert sorted(rows(warehouse, OUTPUTS[0])) == sorted(rows(cold, OUTPUTS[0]))


def test_a_document_changed_by_a_failed_run_is_chunked_again_by_the_next(
    corpus, tmp_path, monkeypatch
):
    warehouse = tmp_path / "wh"
    flow_run(corpus, warehouse, config=ONE_PER_GROUP)
    first, second = (corpus / name for name in STATUTES[:2])
    first.write_text(first.read_text().replace("60 calendar days", "30 calendar days"))
    monkeypatch.setenv("GROUNDWORK_FAILPOINT", "fail:commit:chunks")
    with pytest.raises(RuntimeError, match="failpoint commit:chunks"):
        flow_run(corpus, warehouse, config=ONE_PER_GROUP)  # its ingest committed
    monkeypatch.delenv("GROUNDWORK_FAILPOINT")
    second.write_text(second.read_text().replace("shall", "must", 1))
    third = flow_run(corpus, warehouse, config=ONE_PER_GROUP)  # parses the second file only
    assert third.status == "published"
    changed = {first.stem, second.stem}
    assert own_chunks(warehouse, third.run_id) == (changed, 2)
    cold = tmp_path / "cold"
    flow_run(corpus, cold, config=ONE_PER_GROUP)
    quotes = "SELECT doc_id, char_start, char_end, exact_quote FROM current_requirements"
    for sql in (OUTPUTS[0], quotes):
        assert sorted(rows(warehouse, sql)) == sorted(rows(cold, sql)), sql
