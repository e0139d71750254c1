"""The corpus flow end to end on the sample corpus in data/: a real DuckDB file, real Parquet."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.warehouse.store import Warehouse
from tasks.publish import publish_stage
from tasks.review import review_stage
from tests.support.paths import FIXTURES, SAMPLE_CORPUS
from tests.support.runs import QUIET, flow_run
from tests.support.warehouses import duplicated_run, rows

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]
NOT_VERBATIM = """
    SELECT count(*) FROM current_requirements r JOIN documents d USING (doc_id)
    WHERE substring(d.text, r.char_start + 1, r.char_end - r.char_start) <> r.exact_quote
"""


def register(warehouse: Path) -> dict[tuple[str, int], tuple[str, str]]:
    """(doc_id, char_start) -> (requirement_id, quote) of the published run."""
    found = rows(
        warehouse,
        "SELECT doc_id, char_start, requirement_id, exact_quote FROM current_requirements",
    )
    return {(d, s): (i, q) for d, s, i, q in found}


def test_sample_corpus_is_published_with_verbatim_quotes(published_sample):
    warehouse, summary = published_sample
    assert summary.status == "published"
    assert summary.documents == 50 and summary.rejected == 0
    assert summary.requirements > 300
    assert rows(warehouse, NOT_VERBATIM) == [(0,)]
    prefixes = dict(
        rows(
            warehouse,
            """
        SELECT d.source_type = 'policy', string_agg(DISTINCT left(r.requirement_id, 5), ',')
        FROM current_requirements r JOIN documents d USING (doc_id) GROUP BY 1""",
        )
    )
    assert prefixes == {True: "REQ-P", False: "REQ-S"}
    assert rows(
        warehouse, "SELECT count(*) FROM check_results WHERE NOT passed AND severity = 'hard'"
    ) == [(0,)]
    assert rows(warehouse, "SELECT status FROM runs") == [("published",)]


def test_same_corpus_gives_identical_ids_and_tables(published_sample, tmp_path: Path):
    warehouse, first = published_sample
    second_wh = tmp_path / "again"
    second = flow_run(SAMPLE_CORPUS, second_wh)
    for table, exclude in (
        ("current_requirements", "run_id, first_run"),
        ("current_chunks", "run_id"),
    ):
        sql = f"SELECT * EXCLUDE ({exclude}) FROM {table} ORDER BY ALL"
        assert rows(warehouse, sql) == rows(second_wh, sql)
    assert second.requirements == first.requirements


def test_rerun_in_same_warehouse_keeps_ids(sample_copy: Path):
    warehouse = sample_copy
    before = register(warehouse)
    summary = flow_run(SAMPLE_CORPUS, warehouse)
    assert (summary.new_ids, summary.retired_ids, summary.changed_documents) == (0, 0, 0)
    assert register(warehouse) == before


def test_editing_one_file_changes_only_its_requirements(corpus_copy: Path, tmp_path: Path):
    warehouse = tmp_path / "wh"
    flow_run(corpus_copy, warehouse)
    before = register(warehouse)
    max_id = max(i for i, _ in before.values() if i.startswith("REQ-S"))
    path = corpus_copy / "statutes" / "us-cfr-45-164.404.md"
    text = path.read_text()
    old = (
        "The notification required by paragraph (a) of this section shall be written in "
        "plain language."
    )
    new = (
        "The notification required by paragraph (a) of this section shall be written in "
        "plain language that a layperson can understand."
    )
    assert old in text
    path.write_text(text.replace(old, new))
    summary = flow_run(corpus_copy, warehouse)
    after = register(warehouse)
    assert (summary.changed_documents, summary.new_ids, summary.retired_ids) == (1, 1, 1)
    untouched = {k: v for k, v in before.items() if k[0] != "us-cfr-45-164.404"}
    assert {k: v for k, v in after.items() if k[0] != "us-cfr-45-164.404"} == untouched
    old_ids = {i for i, q in before.values() if "plain language." in q and "(a)" in q}
    assert len(old_ids) == 1
    new_ids = {i for i, q in after.values() if "layperson" in q}
    assert len(new_ids) == 1 and min(new_ids) > max_id
    retired = rows(
        warehouse, "SELECT requirement_id FROM requirement_registry WHERE status = 'retired'"
    )
    assert {r for (r,) in retired} == old_ids


def test_bad_input_is_rejected_and_the_rest_goes_on(corpus_copy: Path, tmp_path: Path):
    warehouse = tmp_path / "wh"
    runner = CliRunner()
    first = runner.invoke(
        app, ["run", "--corpus", str(corpus_copy), "-w", str(warehouse), "--workers", "1"]
    )
    assert first.exit_code == 0, first.output
    (corpus_copy / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (corpus_copy / "empty.md").write_bytes(b"")
    (corpus_copy / "copy.md").write_text('---\ndoc_id: "us-cfr-45-164.404"\n---\nA must B.\n')
    broken = corpus_copy / "statutes" / "us-cfr-45-164.402.md"
    broken.write_text("---\ntitle: [never closed\n" + broken.read_text())
    shutil.copy(FIXTURES / "passages.json", corpus_copy / "passages.json")
    result = runner.invoke(
        app, ["run", "--corpus", str(corpus_copy), "-w", str(warehouse), "--workers", "1"]
    )
    assert result.exit_code == 3, result.output
    rejected = set(rows(warehouse, "SELECT path, reason FROM rejected_documents"))
    assert rejected == {
        ("image.md", "binary"),
        ("empty.md", "empty"),
        ("copy.md", "duplicate_doc_id"),
        ("statutes/us-cfr-45-164.402.md", "front_matter"),
        ("passages.json", "empty"),
    }
    for path in ("image.md", "copy.md", "us-cfr-45-164.402.md", "passages.json (record 3)"):
        assert path in result.output
    # the broken file's last good version is kept, and the good passages were added
    assert rows(warehouse, "SELECT status FROM documents WHERE doc_id = 'us-cfr-45-164.402'") == [
        ("active",)
    ]
    assert rows(warehouse, "SELECT count(*) FROM current_documents") == [(52,)]
    assert rows(
        warehouse,
        "SELECT count(*) FROM current_requirements "
        "WHERE doc_id = '6f1c2a7e-0b1d-4c55-9a9e-1d2f3a4b5c6d'",
    ) == [(1,)]


def test_failed_hard_check_blocks_publication(published_sample, sample_copy: Path):
    warehouse = sample_copy
    wh = Warehouse(warehouse)
    good_run = published_sample[1].run_id
    bad_run = "r99999999T000000000000Z"
    duplicated_run(wh, good_run, bad_run)
    part = wh.parts("requirements", bad_run)[0]
    table = pq.read_table(part).to_pylist()
    table[0]["exact_quote"] = table[0]["exact_quote"].replace("shall", "may", 1) + " promptly"
    table[1]["requirement_id"] = "REQ-S9999"
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(table, schema=pq.read_schema(part)), part)
    results = review_stage.fn(wh, bad_run, QUIET)
    failed = {r["check_name"] for r in results if not r["passed"] and r["severity"] == "hard"}
    # a statement quoting the tampered requirement (whether one does depends on the gate) fails too
    assert {"requirements_verbatim", "requirement_ids_unique"} <= failed
    assert failed <= {
        "requirements_verbatim",
        "requirement_ids_unique",
        "statement_quotes_verbatim",
    }
    assert publish_stage.fn(wh, bad_run, results) is False
    assert rows(warehouse, "SELECT DISTINCT run_id FROM publications") == [(good_run,)]
    assert rows(warehouse, NOT_VERBATIM) == [(0,)]


def test_missing_corpus_is_a_usage_error(tmp_path: Path):
    result = CliRunner().invoke(
        app, ["run", "--corpus", str(tmp_path / "nope"), "-w", str(tmp_path / "wh")]
    )
    assert result.exit_code == 2
    assert "does not exist" in result.output


def test_sql_command_formats_and_is_read_only(published_sample):
    warehouse, _ = published_sample
    runner = CliRunner()
    query = "SELECT requirement_id FROM current_requirements ORDER BY 1 LIMIT 2"
    csv_out = runner.invoke(app, ["sql", query, "-w", str(warehouse), "--format", "csv"])
    assert csv_out.exit_code == 0
    assert csv_out.output.splitlines()[:2] == ["requirement_id", "REQ-P0001"]
    json_out = runner.invoke(app, ["sql", query, "-w", str(warehouse), "-f", "json"])
    assert '"requirement_id": "REQ-P0001"' in json_out.output
    table_out = runner.invoke(app, ["sql", query, "-w", str(warehouse)])
    assert "REQ-P0001" in table_out.output
    write = runner.invoke(app, ["sql", "DELETE FROM document_rows", "-w", str(warehouse)])
    assert write.exit_code == 1 and "read-only" in write.output


def test_sources_keep_their_ids_and_gain_metadata(corpus_copy: Path, tmp_path: Path):
    warehouse = tmp_path / "wh"
    memo = corpus_copy / "memo.md"
    memo.write_text("---\ntitle: Badge memo\n---\nStaff must wear their badges at all times.\n")
    flow_run(corpus_copy, warehouse)
    before = dict(rows(warehouse, "SELECT canonical_key, source_id FROM sources"))
    memo.write_text(
        "---\ntitle: Badge memo\njurisdiction: US-Federal\n"
        "source_url: https://EXAMPLE.gov/Badge\n---\n"
        "Staff must wear their badges at all times.\n"
    )
    flow_run(corpus_copy, warehouse)
    after = dict(rows(warehouse, "SELECT canonical_key, source_id FROM sources"))
    assert {k: after[k] for k in before} == before  # every known source keeps its ID
    new_key = "https://example.gov/badge"  # the URL, lower-cased, is now the key
    assert after[new_key] == f"S{len(before) + 1}"
    assert rows(
        warehouse, f"SELECT jurisdiction FROM sources WHERE canonical_key = '{new_key}'"
    ) == [("US-Federal",)]
    memo.write_text(
        "---\ntitle: Badge memo\nsource_url: https://example.gov/badge\n---\n"
        "Staff must wear their badges at all times.\n"
    )
    flow_run(corpus_copy, warehouse)  # a poorer copy of the same source loses nothing
    assert rows(
        warehouse, f"SELECT source_id, jurisdiction FROM sources WHERE canonical_key = '{new_key}'"
    ) == [(after[new_key], "US-Federal")]


def test_folder_defaults_make_a_text_file_a_policy_and_a_sidecar_edit_reruns(tmp_path: Path):
    corpus, warehouse = tmp_path / "corpus", tmp_path / "wh"
    (corpus / "gsa").mkdir(parents=True)
    (corpus / "gsa" / "_defaults.yaml").write_text(
        'source_type: policy\njurisdiction: US-Federal\ncitation: "GSA Order {stem}"\n'
    )
    (corpus / "gsa" / "2100.1.txt").write_text(
        "Clean desks\n\nStaff must lock their screens when they leave their desks.\n"
    )
    sidecar = corpus / "gsa" / "2100.1.txt.meta.yaml"
    sidecar.write_text("title: Clean desk policy\n")
    assert flow_run(corpus, warehouse).status == "published"
    documents = "SELECT path, source_type, citation, jurisdiction, title FROM current_documents"
    assert rows(warehouse, documents) == [
        ("gsa/2100.1.txt", "policy", "GSA Order 2100.1", "US-Federal", "Clean desk policy")
    ]
    ids = [i for (i,) in rows(warehouse, "SELECT requirement_id FROM current_requirements")]
    assert ids and all(i.startswith("REQ-P") for i in ids)
    assert rows(warehouse, "SELECT count(*) FROM rejected_documents") == [(0,)]
    assert flow_run(corpus, warehouse).status == "unchanged"  # nothing touched
    sidecar.write_text("title: Screens policy\n")
    assert flow_run(corpus, warehouse).status == "published"
    assert rows(warehouse, "SELECT title FROM current_documents") == [("Screens policy",)]
    assert flow_run(corpus, warehouse).status == "unchanged"
