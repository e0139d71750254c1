"""The shard pass's parts less the documents a merge rejected: only the parts that hold them are
rewritten."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from groundwork.warehouse.shard_parts import rewritten_parts


def _part(path: Path, groups: list[list[str]]) -> Path:
    """A part with one row group per list of doc_ids (a row per document)."""
    with pq.ParquetWriter(path, pa.schema([("doc_id", pa.string()), ("n", pa.int64())])) as w:
        for docs in groups:
            w.write_table(pa.table({"doc_id": docs, "n": list(range(len(docs)))}))
    return path


def test_only_the_parts_holding_a_dropped_document_are_rewritten(tmp_path: Path):
    holding = _part(tmp_path / "part-00000.parquet", [["a", "b"], ["shared"]])
    other = _part(tmp_path / "part-00001.parquet", [["c"], ["d", "e"]])
    untouched = other.stat()
    assert rewritten_parts(tmp_path, ["shared"]) == [holding]
    kept = pq.ParquetFile(holding)
    assert kept.num_row_groups == 1  # the group left empty is dropped
    assert kept.read().column("doc_id").to_pylist() == ["a", "b"]
    after = other.stat()
    assert (after.st_ino, after.st_mtime_ns) == (untouched.st_ino, untouched.st_mtime_ns)
    assert pq.read_table(other).column("doc_id").to_pylist() == ["c", "d", "e"]
    assert rewritten_parts(tmp_path, ["gone"]) == []
