"""The requirement register as an OSCAL catalog (`groundwork export --format oscal`).

One control per requirement, its verbatim quote the prose of its `statement` part; one group per
document the requirements quote, and one back-matter resource per document that each control
and group links to. What OSCAL has no field for (modality, offsets, label path, extraction
confidence, IDs, the text's SHA-256) goes in props of the groundwork namespace.

The catalog is a pure function of the export: UUIDs are uuid5 of stable IDs (a document's
resource keeps its UUID across runs while its text stays the same), the dates are the run's,
and keys are sorted, so the same run always gives the same bytes. It is plain JSON:
compliance-trestle validates it in the tests and is not needed to write it.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from groundwork.export.register import (
    cited_as,
    documents_with_requirements,
    one_line,
    run_time,
    token,
)
from schemas.export import DocumentRecord, Provenance, RequirementRecord

# The OSCAL version of compliance-trestle's models, which the tests validate against.
OSCAL_VERSION = "1.2.1"
NAMESPACE = "https://groundwork.dev/ns/oscal"
_UUIDS = uuid.uuid5(uuid.NAMESPACE_URL, NAMESPACE)
_OSCAL_STRING = re.compile(r"\S(.*\S)?")  # OSCAL's `string` datatype


def _uuid(*parts: str) -> str:
    """A UUID that depends only on `parts`: the same inputs give the same UUID in every export."""
    return str(uuid.uuid5(_UUIDS, "/".join(parts)))


def _prop_value(value: object) -> str:
    """A prop value as OSCAL's `string` wants it (one line, no outer white space): as it is when
    it is one already, as an ID always is (schemas/ids.py), so the ID reads back unchanged;
    else with each run of white space as one space."""
    text = str(value)
    return text if _OSCAL_STRING.fullmatch(text) else one_line(text)


def _props(**values: object) -> list[dict[str, str]]:
    """Groundwork props for the values that are set, in argument order, names with `-` for `_`."""
    texts = {name: _prop_value(value) for name, value in values.items() if value is not None}
    return [
        {"name": name.replace("_", "-"), "ns": NAMESPACE, "value": text}
        for name, text in texts.items()
        if text
    ]


def control_id(requirement_id: str) -> str:
    """The OSCAL control id of a requirement: `REQ-S0001` -> `req-s0001`."""
    return requirement_id.lower()


def _control(requirement: RequirementRecord, doc: DocumentRecord, resource: str) -> dict:
    cid = control_id(requirement.requirement_id)
    parts = [{"id": f"{cid}_smt", "name": "statement", "prose": requirement.exact_quote}]
    if requirement.lead_in_quote is not None:  # "A covered entity shall:" before a list item
        parts.append({"name": "lead-in", "ns": NAMESPACE, "prose": requirement.lead_in_quote})
    return {
        "id": cid,
        "title": one_line(f"{cited_as(requirement, doc)} ({requirement.requirement_id})"),
        "props": [
            {"name": "label", "value": requirement.requirement_id},  # OSCAL's own, for display
            *_props(
                modality=requirement.modality,
                label_path=requirement.label_path,
                char_start=requirement.char_start,
                char_end=requirement.char_end,
                extraction_confidence=requirement.extraction_confidence,
                doc_id=requirement.doc_id,
                source_id=requirement.source_id,
            ),
        ],
        "links": [{"href": f"#{resource}", "rel": "reference"}],
        "parts": parts,
    }


def _resource(doc: DocumentRecord, resource: str) -> dict:
    """The document as a back-matter resource. OSCAL holds `hashes` only on an rlink, as the
    digest of what the link serves; the URL serves the published page, not the text groundwork
    read, so the text's SHA-256 is a prop instead."""
    entry: dict[str, Any] = {
        "uuid": resource,
        "title": one_line(doc.title),
        "props": _props(
            doc_id=doc.doc_id,
            source_id=doc.source_id,
            source_type=doc.source_type,
            jurisdiction=doc.jurisdiction,
            effective_date=doc.effective_date,
            text_sha256=doc.sha256,
        ),
    }
    if doc.citation is not None:
        entry["citation"] = {"text": one_line(doc.citation)}
    if doc.url is not None:
        entry["rlinks"] = [{"href": doc.url}]
    return entry


def oscal_catalog(export: Provenance) -> dict:
    """The run's requirement register as an OSCAL catalog document (`{"catalog": ...}`)."""
    run = export.run
    groups, resources = [], []
    for doc, requirements in documents_with_requirements(export):
        resource = _uuid("document", doc.doc_id, doc.sha256)
        resources.append(_resource(doc, resource))
        groups.append(
            {
                "id": token(doc.doc_id),
                "title": one_line(doc.citation or doc.title),
                "props": _props(doc_id=doc.doc_id, source_id=doc.source_id),
                "links": [{"href": f"#{resource}", "rel": "reference"}],
                "controls": [_control(r, doc, resource) for r in requirements],
            }
        )
    catalog: dict[str, Any] = {
        "uuid": _uuid("catalog", run.run_id),
        "metadata": {
            "title": f"Requirement register of run {run.run_id}",
            "last-modified": run_time(run).isoformat(),
            "version": run.run_id,
            "oscal-version": OSCAL_VERSION,
            "props": _props(
                run_id=run.run_id, corpus_sha256=run.corpus_hash, code_version=run.code_version
            ),
        },
    }
    if groups:  # OSCAL allows no empty lists
        catalog |= {"groups": groups, "back-matter": {"resources": resources}}
    return {"catalog": catalog}
