"""`groundwork export`: the published JSON Schema, and a round trip through every format on the
session's warehouse (data/corpus): reload, validate, and resolve every statement to its quote."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.cli.outputs import ExportFormat
from groundwork.export.formats import DEFAULT_NAMES, RECORD_FORMATS
from groundwork.warehouse.store import Warehouse
from schemas.export import ENTITIES, SCHEMA_PATH, export_json_schema, schema_text
from tests.support.cli import exported
from tests.support.warehouses import rows

KEYS = {  # entity -> the field that must be unique in it
    "sources": "source_id",
    "documents": "doc_id",
    "requirements": "requirement_id",
    "questions": "question_id",
    "answers": "question_id",
    "statements": "statement_id",
    "citations": "citation_id",
    "verifications": "verification_id",
    "claims": "claim_id",
    "claim_numbers": "claim_number_id",
    "citation_corrections": "correction_id",
    "checks": "check_name",
}
ENTITY_OF = {model.model_fields["record_type"].default: name for name, model in ENTITIES.items()}


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_committed_schema_is_the_generated_one():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), "run `make export-schema`"
    assert json.loads(schema_text()) == export_json_schema()


def test_cli_formats_are_the_writers():
    assert {f.value for f in ExportFormat} == set(DEFAULT_NAMES)


def test_schema_rejects_a_statement_without_its_verdict(validator):
    statement = {
        "record_type": "statement",
        "statement_id": "q1#S01",
        "question_id": "q1",
        "ordinal": 1,
        "text": "x [REQ-S0001]",
        "char_start": 0,
        "char_end": 13,
        "section": "statutes",
        "claim_type": "general",
        "form": "quote",
        "support": 1.0,
        "verdict": "SUPPORTED",
    }
    validator.validate(statement)
    del statement["verdict"]
    assert not validator.is_valid(statement)
    assert not validator.is_valid({**statement, "verdict": "MAYBE"})


def reloaded(path: Path, fmt: str, validator) -> dict[str, list[dict]]:
    """The export read back with nothing but json and pyarrow, every JSON value validated."""
    if fmt == "json":
        document = json.loads(path.read_text(encoding="utf-8"))
        validator.validate(document)
        return {name: [v] if name == "run" else v for name, v in document.items()}
    if fmt == "jsonl":
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    else:
        assert {p.name for p in path.iterdir()} == {f"{e}.parquet" for e in ENTITIES}
        records = [r for e in ENTITIES for r in pq.read_table(path / f"{e}.parquet").to_pylist()]
    grouped: dict[str, list[dict]] = {name: [] for name in ENTITIES}
    for record in records:
        validator.validate(record)
        grouped[ENTITY_OF[record["record_type"]]].append(record)
    return grouped


def unresolved(export: dict[str, list[dict]]) -> list[str]:
    """Every way the export fails to stand on its own: duplicate IDs, dangling links, and
    statements whose cited quote is not verbatim in its document or not in the statement."""
    problems = []
    for entity, key in KEYS.items():
        ids = [r[key] for r in export[entity]]
        problems += [f"duplicate {key} {i}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    by = {entity: {r[key]: r for r in export[entity]} for entity, key in KEYS.items()}
    for doc in export["documents"]:
        if doc["source_id"] not in by["sources"]:
            problems.append(f"document {doc['doc_id']}: no source {doc['source_id']}")
    for req in export["requirements"]:
        doc = by["documents"].get(req["doc_id"])
        if doc is None or doc["text"][req["char_start"] : req["char_end"]] != req["exact_quote"]:
            problems.append(f"{req['requirement_id']}: quote not at its offsets")
        elif req["sentence_start"] is not None and not (
            req["sentence_start"] <= req["char_start"] < req["char_end"] <= req["sentence_end"]
        ):
            problems.append(f"{req['requirement_id']}: sentence does not hold the quote")
    cited = set()
    for citation in export["citations"]:
        statement = by["statements"].get(citation["statement_id"])
        req = by["requirements"].get(citation["requirement_id"])
        if statement is None or req is None:
            problems.append(f"citation {citation['citation_id']}: dangling")
            continue
        cited.add(statement["statement_id"])
        if citation["citation_id"] != f"{statement['statement_id']}:{req['requirement_id']}":
            problems.append(f"citation {citation['citation_id']}: not its statement:requirement")
        text = by["documents"][req["doc_id"]]["text"]
        if text[req["char_start"] : req["char_end"]] != req["exact_quote"]:
            problems.append(f"{statement['statement_id']}: {req['requirement_id']} not verbatim")
        if statement["form"] == "quote" and req["exact_quote"] not in statement["text"]:
            problems.append(f"{statement['statement_id']}: does not quote {req['requirement_id']}")
    problems += [f"{s} cites nothing" for s in by["statements"] if s not in cited]
    for claim in export["claims"]:
        if claim["statement_id"] not in by["statements"]:
            problems.append(f"claim {claim['claim_id']}: no statement {claim['statement_id']}")
        problems += [
            f"claim {claim['claim_id']}: no requirement {rid}"
            for rid in claim["requirement_ids"]
            if rid not in by["requirements"]
        ]
    for entity in ("claim_numbers", "citation_corrections"):
        problems += [
            f"{entity} of {r['claim_id']}: no such claim"
            for r in export[entity]
            if r["claim_id"] not in by["claims"]
        ]
    return problems


@pytest.fixture(scope="module")
def exports(published_sample, tmp_path_factory, validator) -> dict[str, dict]:
    warehouse, _ = published_sample
    folder = tmp_path_factory.mktemp("exports")
    return {
        fmt: reloaded(exported(warehouse, fmt, folder / f"export.{fmt}"), fmt, validator)
        for fmt in RECORD_FORMATS
    }


@pytest.mark.parametrize("fmt", RECORD_FORMATS)
def test_export_round_trips_and_every_statement_resolves_to_its_quote(
    published_sample, exports, fmt
):
    warehouse, summary = published_sample
    export = exports[fmt]
    assert export["run"][0]["run_id"] == summary.run_id and export["run"][0]["published"]
    assert len(export["documents"]) == summary.documents
    assert len(export["sources"]) == len({d["source_id"] for d in export["documents"]})
    assert len(export["requirements"]) == summary.requirements
    assert len(export["answers"]) == len(export["questions"]) == summary.questions
    assert (
        len(export["statements"])
        == rows(warehouse, "SELECT count(*) FROM current_statements")[0][0]
    )
    assert len(export["citations"]) >= len(export["statements"]) > 0
    assert {c["check_name"] for c in export["checks"]} >= {
        "requirements_verbatim",
        "statements_cited",
    }
    assert {s["form"] for s in export["statements"]} == {"quote", "tension"}
    claims = rows(warehouse, "SELECT count(*) FROM current_claims")[0][0]
    assert len(export["claims"]) == claims >= len(export["statements"])
    assert (
        len(export["claim_numbers"])
        == rows(warehouse, "SELECT count(*) FROM current_claim_numbers")[0][0]
    )
    assert unresolved(export) == []


def test_every_format_carries_the_same_records(exports):
    assert exports["json"] == exports["jsonl"] == exports["parquet"]


def test_round_trip_check_catches_a_quote_moved_off_its_offsets(exports):
    export = json.loads(json.dumps(exports["json"]))  # a deep copy
    cited = export["citations"][0]["requirement_id"]
    req = next(r for r in export["requirements"] if r["requirement_id"] == cited)
    req["char_start"] += 1
    assert f"{cited}: quote not at its offsets" in unresolved(export)


def test_default_target_is_the_runs_report_folder(published_sample, sample_copy):
    warehouse = sample_copy
    run_id = published_sample[1].run_id
    result = CliRunner().invoke(app, ["export", "-f", "jsonl", "-w", str(warehouse)])
    assert result.exit_code == 0, result.output
    assert (warehouse / "reports" / run_id / "provenance.jsonl").is_file()


def test_bad_format_or_unknown_run_is_a_usage_error(published_sample):
    warehouse = str(published_sample[0])
    bad_format = CliRunner().invoke(app, ["export", "-f", "xml", "-w", warehouse])
    assert bad_format.exit_code == 2 and "'xml' is not one of" in bad_format.output
    unknown = CliRunner().invoke(app, ["export", "--run", "r1999", "-w", warehouse])
    assert unknown.exit_code == 2
    assert unknown.output.strip().splitlines() == [
        f"error: no run r1999 with tables in {warehouse}"
    ]


def test_parquet_export_never_replaces_a_folder_that_is_not_an_export(published_sample, tmp_path):
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious")
    result = CliRunner().invoke(
        app, ["export", "-f", "parquet", "-w", str(published_sample[0]), "--out", str(keep)]
    )
    assert result.exit_code == 2 and "is not a Parquet export" in result.output
    assert (keep / "notes.txt").read_text() == "precious"


def test_a_run_whose_documents_changed_since_is_not_exported(sample_copy, tmp_path):
    warehouse = sample_copy
    with Warehouse(warehouse).connect() as con:
        doc_id = con.execute("SELECT doc_id FROM current_requirements LIMIT 1").fetchone()[0]
        con.execute(
            "UPDATE document_texts SET text = 'edited. ' || text "
            "WHERE sha256 = (SELECT sha256 FROM document_rows WHERE doc_id = ?)",
            [doc_id],
        )
    result = CliRunner().invoke(app, ["export", "-w", str(warehouse), "--out", str(tmp_path / "x")])
    assert result.exit_code == 1 and doc_id in result.output
    assert not (tmp_path / "x").exists()


def test_a_run_from_before_claim_checks_exports_no_claims(
    published_sample, sample_copy, tmp_path, validator
):
    warehouse = sample_copy
    run_id = published_sample[1].run_id
    for table in ("claims", "claim_numbers", "citation_corrections"):
        shutil.rmtree(warehouse / "tables" / table / f"run_id={run_id}")
    export = reloaded(exported(warehouse, "json", tmp_path / "old.json"), "json", validator)
    assert export["claims"] == export["claim_numbers"] == export["citation_corrections"] == []
    assert export["statements"] and unresolved(export) == []


def test_a_run_from_before_sentence_offsets_exports_them_null(
    published_sample, sample_copy, tmp_path, validator
):
    warehouse = sample_copy
    run_id = published_sample[1].run_id
    for part in (warehouse / "tables" / "requirements" / f"run_id={run_id}").glob("part-*"):
        table = pq.read_table(part)
        pq.write_table(table.drop(["sentence_start", "sentence_end", "long_quote"]), part)
    export = reloaded(exported(warehouse, "json", tmp_path / "old.json"), "json", validator)
    assert {r["sentence_start"] for r in export["requirements"]} == {None}
    assert unresolved(export) == []


def test_every_requirement_exports_its_sentence(exports):
    requirements = exports["json"]["requirements"]
    assert all(r["sentence_start"] is not None for r in requirements)
    assert any(r["long_quote"] for r in requirements)
