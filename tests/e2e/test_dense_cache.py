"""The dense encoder's vectors are cached in the warehouse by content hash: a rerun with one
changed file encodes only that file's changed chunks, not the corpus again."""

from __future__ import annotations

from pathlib import Path

from tests.support.paths import SAMPLE_QUESTIONS
from tests.support.runs import QUIET, flow_run
from tests.support.warehouses import rows

CHANGED = "statutes/us-cfr-45-164.404.md"


def encoded(warehouse: Path) -> int:
    """Texts the dense encoder has read into the warehouse's cache."""
    return rows(warehouse, "SELECT count(*) FROM model_embeddings")[0][0]


def chunks_of(warehouse: Path, doc_id: str) -> int:
    return rows(warehouse, f"SELECT count(*) FROM current_chunks WHERE doc_id = '{doc_id}'")[0][0]


def test_a_rerun_with_one_changed_file_encodes_only_its_text(
    prefect_harness, corpus_copy: Path, tmp_path: Path
):
    warehouse = tmp_path / "wh"
    flow_run(corpus_copy, warehouse, SAMPLE_QUESTIONS, QUIET)
    first = encoded(warehouse)
    chunks = rows(warehouse, "SELECT count(*) FROM current_chunks")[0][0]
    assert first >= chunks  # every chunk, and the questions

    path = corpus_copy / CHANGED
    path.write_text(path.read_text() + "\nThe covered entity shall keep a copy of each notice.\n")
    flow_run(corpus_copy, warehouse, SAMPLE_QUESTIONS, QUIET)
    added = encoded(warehouse) - first
    assert 1 <= added <= chunks_of(warehouse, Path(CHANGED).stem)
