"""The requirement register as a CISO Assistant framework library (`--format ciso-assistant`).

A library YAML as CISO Assistant loads it (Libraries > Add a library): one framework whose
`requirement_nodes` are a node per document (not assessable) with a child node per requirement
(assessable, `ref_id` the requirement ID, `description` the verbatim quote, `annotation` its
modality). URNs are fixed
(`urn:groundwork:risk:...`), so importing a later export of the same corpus updates the library
in place; CISO Assistant takes an update only from a higher `version`, which is the run's date.
"""

from __future__ import annotations

from groundwork.export.register import (
    cited_as,
    documents_with_requirements,
    one_line,
    run_time,
    token,
)
from schemas.export import Provenance

URN = "urn:groundwork:risk"
NAME = "requirement-register"


def ciso_library(export: Provenance) -> dict:
    """The run's requirement register as a CISO Assistant library document."""
    run = export.run
    nodes = []
    for doc, requirements in documents_with_requirements(export):
        parent = f"{URN}:req_node:{NAME}:{token(doc.doc_id)}"
        nodes.append(
            {
                "urn": parent,
                "assessable": False,
                "depth": 1,
                "ref_id": one_line(doc.citation or doc.doc_id),
                "name": one_line(doc.title),
                **({"annotation": doc.url} if doc.url else {}),
            }
        )
        nodes += [
            {
                "urn": f"{URN}:req_node:{NAME}:{r.requirement_id.lower()}",
                "assessable": True,
                "depth": 2,
                "parent_urn": parent,
                "ref_id": r.requirement_id,
                "name": one_line(cited_as(r, doc)),
                "description": r.exact_quote,
                "annotation": r.modality,
            }
            for r in requirements
        ]
    when = run_time(run)
    description = f"The verbatim requirements of groundwork run {run.run_id}."
    return {
        "urn": f"{URN}:library:{NAME}",
        "locale": "en",
        "ref_id": NAME,
        "name": "Requirement register (groundwork)",
        "description": description,
        "copyright": "The quoted sources' own terms",
        "version": int(when.strftime("%Y%m%d")),
        "publication_date": when.date().isoformat(),
        "provider": "groundwork",
        "packager": "groundwork",
        "objects": {
            "framework": {
                "urn": f"{URN}:framework:{NAME}",
                "ref_id": NAME,
                "name": "Requirement register (groundwork)",
                "description": description,
                "requirement_nodes": nodes,
            }
        },
    }
