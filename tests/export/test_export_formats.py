"""`groundwork export` for spreadsheets and compliance tools: csv, xlsx, oscal, ciso-assistant.

Each is exported from the session's warehouse (data/corpus) and read back with the reader its
users have (csv.DictReader, openpyxl, compliance-trestle's OSCAL models, PyYAML), then held to
the warehouse: every requirement is there with its verbatim quote, and the counts match.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import openpyxl
import pytest
import trestle.oscal
import yaml
from trestle.oscal.catalog import Catalog
from typer.testing import CliRunner

from groundwork.cli import app
from groundwork.export.formats import DEFAULT_NAMES, written_export
from groundwork.export.register import token
from groundwork.export.spreadsheets import (
    FORMULA_STARTS,
    SHEETS,
    spreadsheet_cell,
    spreadsheet_tables,
)
from schemas.export import Provenance
from tests.support.cli import exported
from tests.support.warehouses import rows

FORMATS = ("csv", "xlsx", "oscal", "ciso-assistant")
# An OSCAL token (the ASCII part of its pattern): what control, group and part ids must be.
OSCAL_TOKEN = re.compile(r"^[_A-Za-z][_A-Za-z0-9.-]*$")


@pytest.fixture(scope="module")
def written(published_sample, tmp_path_factory) -> dict[str, Path]:
    warehouse, _ = published_sample
    folder = tmp_path_factory.mktemp("formats")
    return {fmt: exported(warehouse, fmt, folder / DEFAULT_NAMES[fmt]) for fmt in FORMATS}


@pytest.fixture(scope="module")
def quotes(published_sample) -> dict[str, str]:
    """The published register as the warehouse holds it: requirement_id -> exact_quote."""
    sql = "SELECT requirement_id, exact_quote FROM current_requirements"
    return dict(rows(published_sample[0], sql))


@pytest.fixture(scope="module")
def counts(published_sample) -> dict[str, int]:
    """Rows each table should have: the published run's, straight from the warehouse."""
    warehouse, summary = published_sample
    run = summary.run_id
    sql = {
        "requirements": "SELECT count(*) FROM current_requirements",
        "answers": "SELECT count(*) FROM current_answers",
        "citations": "SELECT count(*) FROM current_citations",
        "checks": f"SELECT count(*) FROM check_results WHERE run_id = '{run}'",
    }
    return {name: rows(warehouse, query)[0][0] for name, query in sql.items()}


@pytest.fixture(scope="module")
def provenance(published_sample, tmp_path_factory) -> Provenance:
    path = exported(published_sample[0], "json", tmp_path_factory.mktemp("json") / "p.json")
    return Provenance.model_validate_json(path.read_text(encoding="utf-8"))


def unguarded(cell: str) -> str:
    """A text cell as it was before the formula guard."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


def csv_tables(folder: Path) -> dict[str, list[dict[str, str]]]:
    assert {p.name for p in folder.iterdir()} == {f"{s}.csv" for s in SHEETS}
    tables = {}
    for sheet in SHEETS:
        with (folder / f"{sheet}.csv").open(encoding="utf-8", newline="") as handle:
            tables[sheet] = list(csv.DictReader(handle))
    return tables


def test_csv_is_one_file_per_table_with_the_warehouses_rows(written, counts, quotes):
    tables = csv_tables(written["csv"])
    assert {name: len(table) for name, table in tables.items()} == counts
    assert counts["requirements"] == len(quotes) and counts["citations"] > 0
    register = tables["requirements"]
    assert {r["requirement_id"]: unguarded(r["exact_quote"]) for r in register} == quotes
    assert all(r["citation"] and r["url"] for r in register)
    answers = tables["answers"]
    cited = {c["requirement_id"] for c in tables["citations"]}
    assert cited == {rid for a in answers for rid in a["cited_requirement_ids"].split("; ") if rid}
    for citation in tables["citations"]:
        assert unguarded(citation["exact_quote"]) == quotes[citation["requirement_id"]]
    assert {c["check_name"] for c in tables["checks"]} >= {"requirements_verbatim"}


def test_xlsx_has_a_sheet_per_table_holding_the_same_cells_as_the_csv(written, counts, quotes):
    workbook = openpyxl.load_workbook(written["xlsx"], read_only=True)
    assert workbook.sheetnames == list(SHEETS)
    tables = csv_tables(written["csv"])
    for sheet in SHEETS:
        header, *body = workbook[sheet].iter_rows(values_only=True)
        assert list(header) == list(tables[sheet][0])
        assert len(body) == counts[sheet]
        for got, want in zip(body, tables[sheet], strict=True):
            for value, text in zip(got, want.values(), strict=True):
                if isinstance(value, int | float) and not isinstance(value, bool):
                    # a number: Excel keeps 15 significant digits, and 0.0 reads back as 0
                    assert value == pytest.approx(float(text), rel=1e-14)
                else:
                    assert ("" if value is None else str(value)) == text
    header, *body = workbook["requirements"].iter_rows(values_only=True)
    first = dict(zip(header, body[0], strict=True))
    assert first["exact_quote"] == quotes[first["requirement_id"]]
    assert isinstance(first["char_start"], int)


def test_a_quote_that_looks_like_a_formula_stays_text(provenance, tmp_path):
    assert spreadsheet_cell("=1+1") == "'=1+1"
    assert [spreadsheet_cell(f"{c}x") for c in "+-@\t"] == ["'+x", "'-x", "'@x", "'\tx"]
    assert spreadsheet_cell("- (a) list item") == "'- (a) list item"
    assert spreadsheet_cell("Use a password.") == "Use a password."
    assert spreadsheet_cell(-5) == -5 and spreadsheet_cell(None) is None
    assert spreadsheet_cell(["REQ-S0001", "REQ-S0002"]) == "REQ-S0001; REQ-S0002"

    attack = '=HYPERLINK("https://evil.invalid","click")'
    first = provenance.requirements[0].model_copy(update={"exact_quote": attack})
    tiny = provenance.model_copy(update={"requirements": [first], "citations": []})
    sheet = spreadsheet_tables(tiny)["requirements"]
    column = sheet.columns.index("exact_quote")
    assert sheet.rows == [sheet.rows[0]] and sheet.rows[0][column] == "'" + attack
    xlsx = written_export(tiny, "xlsx", tmp_path / "tiny.xlsx")
    cell = openpyxl.load_workbook(xlsx)["requirements"].cell(row=2, column=column + 1)
    assert (cell.value, cell.data_type) == ("'" + attack, "s")
    folder = written_export(tiny, "csv", tmp_path / "tiny-csv")
    (row,) = csv_tables(folder)["requirements"]
    assert row["exact_quote"] == "'" + attack


def test_oscal_catalog_is_valid_and_has_a_control_per_requirement(
    written, quotes, published_sample
):
    catalog = Catalog.oscal_read(written["oscal"])  # trestle's pydantic models validate it
    assert catalog is not None
    assert catalog.metadata.oscal_version.root.root == trestle.oscal.OSCAL_VERSION
    assert catalog.metadata.version == published_sample[1].run_id
    document = json.loads(written["oscal"].read_text(encoding="utf-8"))["catalog"]
    controls = [c for group in document["groups"] for c in group["controls"]]
    ids = [c["id"] for c in controls]
    assert len(ids) == len(set(ids)) and all(OSCAL_TOKEN.match(i) for i in ids)
    assert sorted(ids) == sorted(rid.lower() for rid in quotes)
    assert "req-s0001" in ids
    resources = {r["uuid"]: r for r in document["back-matter"]["resources"]}
    assert len(resources) == len(document["groups"])
    for group in document["groups"]:
        assert OSCAL_TOKEN.match(group["id"])
    for control in controls:
        label = next(p["value"] for p in control["props"] if p["name"] == "label")
        (statement,) = [p for p in control["parts"] if p["name"] == "statement"]
        assert statement["prose"] == quotes[label] and control["id"] == label.lower()
        (link,) = control["links"]
        assert link["rel"] == "reference" and link["href"][1:] in resources
        assert label in control["title"]
    texts = dict(rows(published_sample[0], "SELECT doc_id, sha256 FROM current_documents"))
    for resource in resources.values():
        props = {p["name"]: p["value"] for p in resource["props"]}
        assert props["text-sha256"] == texts[props["doc-id"]]
        assert resource["rlinks"][0]["href"].startswith("https://")


def test_oscal_export_is_byte_identical_when_repeated(written, published_sample, tmp_path):
    again = exported(published_sample[0], "oscal", tmp_path / "again.json")
    assert again.read_bytes() == written["oscal"].read_bytes()


def test_ciso_assistant_library_has_a_node_per_document_and_requirement(written, quotes):
    library = yaml.safe_load(written["ciso-assistant"].read_text(encoding="utf-8"))
    assert library["urn"].startswith("urn:") and isinstance(library["version"], int)
    nodes = library["objects"]["framework"]["requirement_nodes"]
    urns = [n["urn"] for n in nodes]
    assert len(urns) == len(set(urns))
    documents = {n["urn"] for n in nodes if not n["assessable"]}
    requirements = [n for n in nodes if n["assessable"]]
    assert {n["ref_id"]: n["description"] for n in requirements} == quotes
    assert all(n["parent_urn"] in documents and n["depth"] == 2 for n in requirements)


def test_tokens_are_unique_and_valid():
    assert token("nist-sp800-53r5-ac-3") == "nist-sp800-53r5-ac-3"
    made = [token(name) for name in ("Policy Doc 2024", "policy-doc-2024", "45 CFR 164", "a b")]
    assert len(set(made)) == len(made) and all(OSCAL_TOKEN.match(t) for t in made)
    assert made[0].startswith("policy-doc-2024-") and made[2].startswith("id-45-cfr-164-")


def test_a_target_that_cannot_take_the_export_is_a_usage_error(published_sample, tmp_path):
    warehouse = str(published_sample[0])
    (tmp_path / "oscal-catalog.json").mkdir()  # a folder where the file would go
    (tmp_path / "notes.txt").write_text("precious")
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious")
    cases = {
        ("oscal", tmp_path): f"{tmp_path / 'oscal-catalog.json'} is a folder",
        ("xlsx", tmp_path / "notes.txt" / "x.xlsx"): f"{tmp_path / 'notes.txt'} is a file",
        ("csv", keep): f"{keep} exists and is not a CSV export",
    }
    for (fmt, out), message in cases.items():
        result = CliRunner().invoke(app, ["export", "-f", fmt, "-w", warehouse, "--out", str(out)])
        assert result.exit_code == 2, result.output
        (line,) = result.output.strip().splitlines()
        assert line.startswith(f"error: {message}"), line
    assert (tmp_path / "notes.txt").read_text() == (keep / "notes.txt").read_text() == "precious"
    assert [p.name for p in keep.iterdir()] == ["notes.txt"]


def test_a_control_character_becomes_a_replacement_in_xlsx_only(provenance, tmp_path):
    quote = "Keep the records.\x0cFor six years."  # a form feed, as PDF text has
    first = provenance.requirements[0].model_copy(update={"exact_quote": quote})
    tiny = provenance.model_copy(update={"requirements": [first], "citations": []})
    xlsx = written_export(tiny, "xlsx", tmp_path / "tiny.xlsx")
    header, row = openpyxl.load_workbook(xlsx)["requirements"].iter_rows(values_only=True)
    assert dict(zip(header, row, strict=True))["exact_quote"] == quote.replace("\x0c", "\ufffd")
    (kept,) = csv_tables(written_export(tiny, "csv", tmp_path / "tiny-csv"))["requirements"]
    assert kept["exact_quote"] == quote
