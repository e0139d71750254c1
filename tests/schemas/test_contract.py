"""The pandera contracts stop a stage with one message that names the table and the checks."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pyarrow as arrow
import pytest

from schemas.chunks import ARROW_SCHEMA, Chunks
from schemas.contract import ContractViolation, checked


def chunk_rows(text: str, char_end: int) -> arrow.Table:
    """One chunk of `text` claimed to end at `char_end`."""
    row = {
        "chunk_id": "D1#0", "doc_id": "D1", "ordinal": 0, "section": None, "label_path": None,
        "heading": None, "char_start": 0, "char_end": char_end, "text": text,
        "sha256": hashlib.sha256(text.encode()).hexdigest(), "n_words": len(text.split()),
    }  # fmt: skip
    return arrow.Table.from_pylist([row], schema=ARROW_SCHEMA)


def test_a_table_that_keeps_its_contract_comes_back_unchanged():
    table = chunk_rows("Each entity shall notify.", 25)
    assert checked(table, Chunks, "chunks") is table


def test_a_broken_table_names_the_table_and_the_failed_check():
    with pytest.raises(
        ContractViolation,
        match=r"^chunks: contract failures: text_length_matches_offsets \(1 rows, e.g. row 0\)$",
    ):
        checked(chunk_rows("Each entity shall notify.", 24), Chunks, "chunks")


def test_a_column_check_failure_names_the_column():
    table = chunk_rows("Each entity shall notify.", 25).set_column(
        9, "sha256", arrow.array(["not a hash"])
    )
    with pytest.raises(
        ContractViolation, match=r"str_matches.* on sha256 \(1 rows, e.g. 'not a hash'\)"
    ):
        checked(table, Chunks, "chunks")


def test_one_check_failing_on_two_columns_is_reported_per_column():
    table = chunk_rows("Each entity shall notify.", 25)
    table = table.set_column(6, "char_start", arrow.array([-1])).set_column(
        7, "char_end", arrow.array([0])
    )
    with pytest.raises(ContractViolation) as failed:
        checked(table, Chunks, "chunks")
    assert "on char_start (1 rows, e.g. -1)" in str(failed.value)
    assert "on char_end (1 rows, e.g. 0)" in str(failed.value)


def test_loading_the_contracts_does_not_import_dask():
    """pandera imports dask.dataframe (a second and more) whenever it builds a schema from a
    DataFrameModel and dask is installed; the contracts are DataFrameSchemas so a run does not."""
    code = (
        "import sys, schemas.export, schemas.requirements, schemas.contract as c;"
        "from tests.schemas.test_contract import chunk_rows; from schemas.chunks import Chunks;"
        "c.checked(chunk_rows('abc', 3), Chunks, 'chunks');"
        "sys.exit('dask.dataframe' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def _requirements_part(path, drop: str | None = None, **changed) -> None:
    """A one-row requirements part: the registry's columns well formed, the others null (register
    does not check them again), with `changed` columns set and `drop` left out."""
    import pyarrow.parquet as pq

    from schemas.requirements import Requirements

    row = dict.fromkeys(Requirements.columns) | {
        "requirement_id": "REQ-S0001",
        "canonical_key": "ab" * 32,
        "source_id": "S1",
        "first_run": "r20261126T000000000000Z",
    }
    row |= changed
    row.pop(drop, None)
    pq.write_table(arrow.Table.from_pylist([row]), path)


def test_register_holds_its_part_to_the_requirements_contract(tmp_path):
    from tasks.register import _check_written

    good = tmp_path / "good.parquet"
    _requirements_part(good)
    _check_written(good)
    bad_id = tmp_path / "bad_id.parquet"
    _requirements_part(bad_id, requirement_id="REQ-X1")
    with pytest.raises(ContractViolation, match="requirement_id"):
        _check_written(bad_id)
    extra = tmp_path / "extra.parquet"
    _requirements_part(extra, surprise="x")
    with pytest.raises(ContractViolation, match="surprise"):
        _check_written(extra)
    missing = tmp_path / "missing.parquet"
    _requirements_part(missing, drop="first_run")
    with pytest.raises(ContractViolation, match="first_run"):
        _check_written(missing)
