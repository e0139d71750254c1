"""The requirement register as the export's views show it (spreadsheets, OSCAL, CISO Assistant).

Every view cites a requirement the same way, and the two catalog formats group requirements
under the document they quote, need identifiers made of a few safe characters, and date the
catalog by its run. They share these helpers so that an OSCAL group and a CISO Assistant node
name the same document the same way, and so that nothing in either depends on the time of the
export.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

from groundwork.export.answers_markdown import location
from schemas.export import DocumentRecord, Provenance, RequirementRecord, RunRecord

_NOT_TOKEN = re.compile(r"[^a-z0-9._-]+")


def documents_with_requirements(
    export: Provenance,
) -> list[tuple[DocumentRecord, list[RequirementRecord]]]:
    """Each document that holds requirements, in doc_id order, with its requirements in ID
    order. A document the run read but took no requirement from has nothing to catalog."""
    by_doc: dict[str, list[RequirementRecord]] = {}
    for requirement in sorted(export.requirements, key=lambda r: r.requirement_id):
        by_doc.setdefault(requirement.doc_id, []).append(requirement)
    documents = sorted(export.documents, key=lambda d: d.doc_id)
    return [(doc, by_doc[doc.doc_id]) for doc in documents if doc.doc_id in by_doc]


def cited_as(requirement: RequirementRecord, doc: DocumentRecord) -> str:
    """A requirement's citation with its subsection, as answers.md gives it:
    `45 CFR § 164.404(a)(1)`, or the document's title where it has no citation."""
    return location(
        {"citation": doc.citation, "title": doc.title, "label_path": requirement.label_path}
    )


def token(name: str) -> str:
    """`name` as a lowercase ASCII token (a letter first, then letters, digits, `-`, `.`, `_`),
    valid as an OSCAL id and inside a URN. A name that is such a token already stays as it is;
    any other gets 8 hex digits of its SHA-256 appended, so two names never become one token."""
    cleaned = _NOT_TOKEN.sub("-", name.lower())
    if not cleaned[:1].isalpha():
        cleaned = f"id-{cleaned}"
    if cleaned == name:
        return name
    return f"{cleaned}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:8]}"


def one_line(text: str) -> str:
    """`text` with every run of whitespace as one space: titles in both formats are one line."""
    return " ".join(text.split())


def run_time(run: RunRecord) -> datetime:
    """When the run finished (started, if it never finished), in UTC: the warehouse records
    UTC without a zone. A catalog is dated by its run, never by the export, so that exporting
    the same run twice gives the same bytes."""
    return datetime.fromisoformat(run.finished_at or run.started_at).replace(tzinfo=UTC)
