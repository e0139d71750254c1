"""Hostile IDs: the grammar of doc_id and question_id (schemas/ids.py), its enforcement at ingest
and in question files, and the escaping of the IDs it allows in every output of a run."""

from __future__ import annotations

import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from groundwork.ingest.documents import ParseItem, parsed_documents
from groundwork.ingest.listing import FileDigest
from groundwork.ingest.metadata import NO_METADATA
from groundwork.ingest.parsers import file_documents
from groundwork.questions import loaded_questions
from schemas.config import RunConfig
from schemas.ids import ID_MAX_CHARS, invalid_id_reason, shown_id
from tests.support.paths import SAMPLE_CORPUS, SAMPLE_QUESTIONS

# Hostile, and valid: the grammar allows quotes, <, >, &, #, % and spaces; every output escapes
# them. (`</script>` cannot be in an ID: `/` is a path separator.)
HOSTILE_DOC_ID = "x\"><script>alert(1)<img src=x onerror=alert(2)>&'#%20 é"
HOSTILE_QUESTION_ID = "Q\"><script>alert(3)<b onmouseover=alert(4)>&'#%20 ü"
BAD_IDS = {
    "../../etc/passwd": "path separator",
    "a\\b": "path separator",
    "a/b": "path separator",
    "a\nb": "control character (U+000A)",
    "a\tb": "control character (U+0009)",
    "a\x00b": "control character (U+0000)",
    "a\u202eb": "control character (U+202E)",  # right-to-left override (Cf)
    "a\u2028b": "control character (U+2028)",  # line separator (Zl)
    ".hidden": "starts with a dot",
    "..": "starts with a dot",
    " a": "white space",
    "a\u00a0": "white space",
    "": "is empty",
    "x" * (ID_MAX_CHARS + 1): f"at most {ID_MAX_CHARS}",
}
GOOD_IDS = [
    "us-cfr-45-160.101",
    "nist-sp800-53r5-ac-3",
    "gsa-tts-handbook-general-information-and-resources--tech-policies--password-requirements",
    "Q001",
    "42",
    "3f2b8c1e-9a4d-4c2e-8f1a-0b6d7e5c4a39",
    "Règlement général 2016-679",
    "a b",
    "x" * ID_MAX_CHARS,
    HOSTILE_DOC_ID,
    HOSTILE_QUESTION_ID,
]


@pytest.mark.parametrize("value", GOOD_IDS)
def test_real_and_hostile_but_harmless_ids_pass(value):
    assert invalid_id_reason(value) is None


@pytest.mark.parametrize(("value", "reason"), BAD_IDS.items(), ids=repr)
def test_each_bad_class_is_rejected_with_its_reason(value, reason):
    assert reason in invalid_id_reason(value)


def test_the_sample_corpus_and_questions_pass_the_grammar():
    config = RunConfig()
    for path in sorted(SAMPLE_CORPUS.rglob("*.md")):
        (doc,) = file_documents(path, path.name, config).documents
        assert invalid_id_reason(doc["doc_id"]) is None
    loaded = loaded_questions(SAMPLE_QUESTIONS)
    assert len(loaded.questions) == 85 and loaded.rejections == []


FORBIDDEN = ("C", "Zl", "Zp")


@given(st.text(max_size=ID_MAX_CHARS + 20))
def test_an_accepted_id_holds_nothing_dangerous(value):
    if invalid_id_reason(value) is None:
        assert "/" not in value and "\\" not in value and not value.startswith(".")
        assert not any(unicodedata.category(c).startswith(FORBIDDEN) for c in value)
        assert 0 < len(value) <= ID_MAX_CHARS and value == value.strip()
    shown = shown_id(value)
    assert shown.isprintable() and len(shown) <= 10 * 60 + 5  # one line, however long the ID


def _front_matter_file(folder: Path, name: str, doc_id: str) -> Path:
    path = folder / name
    body = "# Rule\n\nA covered entity must keep records for six years.\n"
    path.write_text(f"---\ndoc_id: {json.dumps(doc_id)}\n---\n{body}", encoding="utf-8")
    return path


def _batch(paths: list[Path]) -> list[ParseItem]:
    """The files as ingest hands them to a worker, with the size and mtime it saw."""
    return [
        (p, p.name, FileDigest("", p.stat().st_size, p.stat().st_mtime_ns), NO_METADATA)
        for p in paths
    ]


def test_ingest_rejects_bad_doc_ids_and_keeps_the_rest(tmp_path: Path):
    bad = ["../../etc/passwd", "a\nb", ".hidden", "a/b"]
    paths = [_front_matter_file(tmp_path, f"doc{i}.md", d) for i, d in enumerate(bad)]
    paths.append(_front_matter_file(tmp_path, "good.md", HOSTILE_DOC_ID))
    collection = tmp_path / "passages.jsonl"
    collection.write_text(
        json.dumps({"id": "p-1", "text": "Staff must lock screens."})
        + "\n"
        + json.dumps({"id": "p/2", "text": "Staff must report incidents."})
        + "\n",
        encoding="utf-8",
    )
    documents, rejected = parsed_documents((_batch([*paths, collection]), RunConfig()))
    assert sorted(documents.column("doc_id").to_pylist()) == sorted([HOSTILE_DOC_ID, "p-1"])
    rows = rejected.to_pylist()
    assert [(r["path"], r["record"], r["reason"]) for r in rows] == [
        *((f"doc{i}.md", None, "bad_doc_id") for i in range(4)),
        ("passages.jsonl", "line 2", "bad_doc_id"),
    ]
    details = [r["detail"] for r in rows]
    assert all("\n" not in d and d.startswith("doc_id '") for d in details)
    assert details[0] == "doc_id '../../etc/passwd' contains a path separator ('/')"
    assert details[1] == "doc_id 'a\\nb' contains a control character (U+000A)"
    assert details[2] == "doc_id '.hidden' starts with a dot"


def test_a_long_bad_id_is_shown_cut_short(tmp_path: Path):
    path = _front_matter_file(tmp_path, "long.md", "/" + "x" * 500)
    _, rejected = parsed_documents((_batch([path]), RunConfig()))
    (detail,) = rejected.column("detail").to_pylist()
    assert len(detail) < 120 and "'..." in detail and "at most 200" in detail


def test_questions_with_bad_ids_are_rejected_and_good_ones_kept(tmp_path: Path):
    rows = [
        {"question_id": qid, "question": "What must a covered entity do after a breach?"}
        for qid in ("../../etc/passwd", "a\nb", ".hidden", "a/b", "x" * 201, HOSTILE_QUESTION_ID)
    ]
    rows.append({"question_id": 7, "question": "Who keeps the records?"})
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    loaded = loaded_questions(path)
    assert [q.question_id for q in loaded.questions] == [HOSTILE_QUESTION_ID, "7"]
    assert [(r["line"], r["question_id"]) for r in loaded.rejections] == [
        (1, "../../etc/passwd"),
        (2, "a\nb"),
        (3, ".hidden"),
        (4, "a/b"),
        (5, "x" * 201),
    ]
    reasons = [r["reason"] for r in loaded.rejections]
    assert all(r.startswith("bad_question_id: question_id '") and "\n" not in r for r in reasons)
    assert (
        reasons[1] == "bad_question_id: question_id 'a\\nb' contains a control character (U+000A)"
    )
    assert "at most 200" in reasons[4] and len(reasons[4]) < 150


# --- a run with hostile but valid IDs: every output escapes them -----------------------------


class _Page(HTMLParser):
    """The elements, attribute values and text of a page, as a browser's parser sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [(name, value) for name, value in attrs if value]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed_page(markup: str) -> _Page:
    page = _Page()
    page.feed(markup)
    page.close()
    return page


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory, prefect_harness):
    """One published run of three sample documents, one under HOSTILE_DOC_ID and one with a
    bad doc_id, and questions under HOSTILE_QUESTION_ID and a bad question_id."""
    from tests.support.runs import flow_run

    folder = tmp_path_factory.mktemp("hostile")
    corpus = folder / "corpus"
    corpus.mkdir()
    for name, doc_id in (
        ("us-cfr-45-164.404.md", HOSTILE_DOC_ID),
        ("us-cfr-45-164.410.md", "us-cfr-45-164.410"),
        ("us-cfr-45-164.408.md", "../../etc/passwd"),
    ):
        text = (SAMPLE_CORPUS / "statutes" / name).read_text(encoding="utf-8")
        own = f'doc_id: "{Path(name).stem}"\n'
        assert own in text
        line = f"doc_id: {json.dumps(doc_id, ensure_ascii=False)}\n"
        (corpus / name).write_text(text.replace(own, line, 1), encoding="utf-8")
    questions = folder / "questions.yaml"
    questions.write_text(
        "questions:\n"
        f"  - question_id: {json.dumps(HOSTILE_QUESTION_ID)}\n"
        "    question: What must a covered entity do after discovering a breach of unsecured "
        "protected health information?\n"
        "  - question_id: 'a/b'\n"
        "    question: Who must be notified of a breach?\n",
        encoding="utf-8",
    )
    warehouse = folder / "wh"
    summary = flow_run(corpus, warehouse, questions)
    assert summary.status == "published"
    return warehouse, summary.run_id


def test_the_run_rejects_the_bad_ids_and_publishes_the_rest(hostile_run):
    from tests.support.warehouses import rows

    warehouse, run_id = hostile_run
    assert rows(
        warehouse, f"SELECT path, reason FROM rejected_documents WHERE run_id = '{run_id}'"
    ) == [("us-cfr-45-164.408.md", "bad_doc_id")]
    ((question_id, reason),) = rows(
        warehouse, f"SELECT question_id, reason FROM rejected_questions WHERE run_id = '{run_id}'"
    )
    assert question_id == "a/b" and reason.startswith("bad_question_id:")
    assert (HOSTILE_DOC_ID,) in rows(warehouse, "SELECT doc_id FROM documents")


def test_the_report_shows_hostile_ids_as_text(hostile_run):
    warehouse, run_id = hostile_run
    markup = (warehouse / "reports" / run_id / "report.html").read_text(encoding="utf-8")
    assert "<script>alert" not in markup and "<img src=x" not in markup
    assert "<b onmouseover" not in markup
    page = _parsed_page(markup)
    assert page.tags.count("script") == 1 and "img" not in page.tags  # only the report's own
    assert HOSTILE_QUESTION_ID in "".join(page.text)  # shown as written
    values = dict(page.attributes)
    assert values["data-question"] == HOSTILE_QUESTION_ID  # read back whole
    assert values["data-statement"].startswith(HOSTILE_QUESTION_ID + "#S")
    # element ids and fragments are plain tokens: a hostile question ID is numbered instead
    ids = [v for n, v in page.attributes if n == "id"]
    assert all(re.fullmatch(r"[\w.-]+", v) for v in ids) and HOSTILE_QUESTION_ID not in ids
    run_files = r"answers\.md|audit_trail\.json|data_docs/index\.html|changes\.md"
    assert all(
        re.fullmatch(rf"#[\w.-]+|https?://\S+|{run_files}", v)
        for n, v in page.attributes
        if n == "href"
    )


def test_answers_md_shows_the_question_id_as_written(hostile_run):
    warehouse, run_id = hostile_run
    text = (warehouse / "reports" / run_id / "answers.md").read_text(encoding="utf-8")
    heading = next(line for line in text.splitlines() if line.startswith("## Q"))
    rendered = MarkdownIt("commonmark").render(heading)
    page = _parsed_page(rendered)
    assert page.tags == ["h2"]  # no tag of the ID's own
    assert "".join(page.text).startswith(HOSTILE_QUESTION_ID + ": What must")


def test_exports_carry_the_ids_unchanged(hostile_run, tmp_path: Path):
    from trestle.oscal.catalog import Catalog

    from groundwork.export.formats import written_export
    from groundwork.export.records import provenance
    from groundwork.warehouse.store import Warehouse

    warehouse, run_id = hostile_run
    wh = Warehouse(warehouse)
    with wh.connect(read_only=True) as con:
        export = provenance(con, wh, run_id)
    path = written_export(export, "json", tmp_path / "provenance.json")
    records = json.loads(path.read_text(encoding="utf-8"))
    assert HOSTILE_DOC_ID in {d["doc_id"] for d in records["documents"]}
    assert {a["question_id"] for a in records["answers"]} == {HOSTILE_QUESTION_ID}
    path = written_export(export, "oscal", tmp_path / "oscal-catalog.json")
    assert Catalog.oscal_read(path) is not None  # still valid OSCAL
    catalog = json.loads(path.read_text(encoding="utf-8"))["catalog"]
    (group,) = [g for g in catalog["groups"] if _prop(g, "doc-id") == HOSTILE_DOC_ID]
    assert re.fullmatch(r"[a-z][a-z0-9._-]*", group["id"])  # an OSCAL token, not the ID
    assert {_prop(c, "doc-id") for c in group["controls"]} == {HOSTILE_DOC_ID}
    resources = catalog["back-matter"]["resources"]
    assert HOSTILE_DOC_ID in {_prop(r, "doc-id") for r in resources}


def _prop(item: dict, name: str) -> str:
    """The value of an OSCAL item's prop."""
    return next(p["value"] for p in item["props"] if p["name"] == name)


def test_data_docs_show_a_hostile_id_as_text(hostile_run, tmp_path: Path):
    """A failed expectation lists the offending values: a duplicated hostile question_id."""
    from groundwork.quality.data_docs import quality_frames, validated
    from groundwork.quality.expectations import expectation_suites
    from groundwork.quality.gates import checks
    from groundwork.warehouse.store import Warehouse

    warehouse, run_id = hostile_run
    suites = expectation_suites({c.name: c for c in checks()})
    with Warehouse(warehouse).connect(read_only=True) as con:
        frames = quality_frames(con, Warehouse(warehouse), run_id, suites)
    answers = frames["answers"]
    frames["answers"] = answers.iloc[[0, 0]].reset_index(drop=True)  # question_id not unique
    outcome = validated(frames, suites, run_id, tmp_path / "data_docs")
    assert not outcome.success
    pages = [p.read_text(encoding="utf-8") for p in (tmp_path / "data_docs").rglob("*.html")]
    answers_page = next(p for p in pages if "alert(3)" in p)
    assert "<script>alert" not in answers_page and "<b onmouseover" not in answers_page
    assert HOSTILE_QUESTION_ID in "".join(_parsed_page(answers_page).text)  # shown as written
