"""The provenance as four spreadsheet tables, for `--format csv` and `--format xlsx`.

People and compliance tools that import spreadsheets want the register and the answers flat:
`requirements` (each with its document's citation, title and URL), `answers` (one row per
question), `citations` (one row per statement and requirement it cites, with the quote) and
`checks`. Both formats are written from these tables, so they hold the same cells.

Cells are made safe to open in a spreadsheet here, once: a list becomes one text joined with
"; ", and a text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading
`'`, so that Excel or LibreOffice shows it rather than running it as a formula (quotes come from
the user's corpus, which may hold anything). Numbers and booleans stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from groundwork.export.register import cited_as
from schemas.export import Provenance

Cell = str | int | float | bool | None
LIST_SEPARATOR = "; "
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_COLUMNS = {
    "requirements": (
        "requirement_id",
        "citation",
        "title",
        "url",
        "source_type",
        "jurisdiction",
        "modality",
        "trigger",
        "subject",
        "label_path",
        "exact_quote",
        "lead_in_quote",
        "long_quote",
        "extraction_confidence",
        "doc_id",
        "source_id",
        "char_start",
        "char_end",
    ),
    "answers": (
        "question_id",
        "question",
        "topic",
        "result",
        "grounding_confidence",
        "verified_count",
        "cited_requirement_ids",
        "unused_requirement_ids",
        "missing_evidence",
        "final_answer",
    ),
    "citations": (
        "citation_id",
        "question_id",
        "statement_id",
        "ordinal",
        "statement",
        "verdict",
        "requirement_id",
        "role",
        "citation",
        "exact_quote",
        "url",
    ),
    "checks": (
        "check_name",
        "table_name",
        "severity",
        "passed",
        "metric",
        "threshold",
        "value",
        "offending_rows",
        "sample",
    ),
}
SHEETS = tuple(_COLUMNS)


@dataclass(frozen=True)
class Sheet:
    """One table: its header and its rows, every cell already safe for a spreadsheet."""

    columns: tuple[str, ...]
    rows: list[tuple[Cell, ...]]


def spreadsheet_cell(value: Cell | list[str]) -> Cell:
    """A value as a spreadsheet cell: a list joined with "; ", a text that a spreadsheet
    would take for a formula prefixed with `'`."""
    if isinstance(value, list):
        value = LIST_SEPARATOR.join(value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _sheet(name: str, records: Iterable[dict]) -> Sheet:
    columns = _COLUMNS[name]
    rows = [tuple(spreadsheet_cell(record[c]) for c in columns) for record in records]
    return Sheet(columns, rows)


def spreadsheet_tables(export: Provenance) -> dict[str, Sheet]:
    """The export's requirements, answers, citations and checks as named tables, in order."""
    documents = {d.doc_id: d for d in export.documents}
    requirements = {r.requirement_id: r for r in export.requirements}
    questions = {q.question_id: q for q in export.questions}
    statements = {s.statement_id: s for s in export.statements}

    def source(requirement_id: str) -> dict:
        """Where a requirement is from: its citation, its document's title and URL."""
        requirement = requirements[requirement_id]
        doc = documents[requirement.doc_id]
        return {"citation": cited_as(requirement, doc), "title": doc.title, "url": doc.url}

    cited: dict[str, set[str]] = {}
    for citation in export.citations:
        cited.setdefault(citation.question_id, set()).add(citation.requirement_id)
    return {
        "requirements": _sheet(
            "requirements",
            (
                {
                    **r.model_dump(),
                    **source(r.requirement_id),
                    "source_type": documents[r.doc_id].source_type,
                    "jurisdiction": documents[r.doc_id].jurisdiction,
                }
                for r in export.requirements
            ),
        ),
        "answers": _sheet(
            "answers",
            (
                {
                    **a.model_dump(),
                    "question": questions[a.question_id].question,
                    "topic": questions[a.question_id].topic,
                    "cited_requirement_ids": sorted(cited.get(a.question_id, ())),
                }
                for a in export.answers
            ),
        ),
        "citations": _sheet(
            "citations",
            (
                {
                    **c.model_dump(),
                    **source(c.requirement_id),
                    "ordinal": statements[c.statement_id].ordinal,
                    "statement": statements[c.statement_id].text,
                    "verdict": statements[c.statement_id].verdict,
                    "exact_quote": requirements[c.requirement_id].exact_quote,
                }
                for c in export.citations
            ),
        ),
        "checks": _sheet("checks", (c.model_dump() for c in export.checks)),
    }
