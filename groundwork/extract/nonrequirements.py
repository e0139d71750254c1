"""Quotes that are never requirements on their own, whichever backend found them.

Two kinds reached the register and stated no duty there:

* a citation or amendment note: "[68 FR 8376, Feb. 20, 2003, as amended at 78 FR 5694, Jan. 25,
  2013]" closes many CFR sections, and the rules read it as one more item of the list above it;
  New York's editorial notes ("NB Effective until June 30, 2027", "NB Repealed March 31, 2026")
  stand before versions of a subsection;
* a lead-in: "... a covered entity or business associate must--" states its duty in the items
  it introduces. The items carry it as their `lead_in_quote` (rules.py), so it travels with them
  and is not registered alone; one whose items were not found states no duty either. A lead-in
  of conditions ("... may disclose it only if:", "... unless:") is kept: it states the duty, and
  its items only the cases it holds in.

Such a candidate stays in `candidates` with `is_requirement` false, as the trained backend's
rejections do, so a reader sees what was set aside. The review's hard check
sql/checks/requirements_stand_alone.sql holds every run to the same definition
(tests/quality/test_requirements_stand_alone.py compares the two).
"""

from __future__ import annotations

import re

# A list of conditions, not of requirements: "..., except to the extent that:" (rules.py keeps
# such a lead-in off its items, and it is a requirement of its own).
CONDITION_LEAD = re.compile(
    r"\b(?:that|if|unless|where|when|whether|which|who|whom|because|provided)\W*$", re.IGNORECASE
)
# The marks that end a lead-in: "must:", "must--", "shall—".
_LEAD_IN_MARKS = (":", "--", "—", "–")
# A whole quote in brackets or parentheses (holding at most one more level of them, "§ 262(a)"),
# or a line opened as a note ("Source: ..."), ...
_NOTE = re.compile(
    r"\s*(?:\[(?:[^\[\]]|\[[^\[\]]*\])*\]|\((?:[^()]|\([^()]*\))*\)"
    r"|(?:Source|Authority|History|Credits|Editorial Note)s?:.*|NB\s+[^()\n]*)"
    r"[\s.;]*",
    re.DOTALL,
)
# ... that cites the Federal Register, a public law, the Statutes at Large or a code, or amends
# (New York's editorial "NB ..." notes date or repeal the subsection below them).
_CITATION = re.compile(
    r"\b\d+\s+FR\s+\d|\bPub\.\s*L\.|\b\d+\s+Stat\.|\bU\.\s?S\.\s?C\.|\bC\.?F\.?R\.?\b"
    r"|\bas amended\b|\bredesignated\b|\bNB\s",
)


def is_citation_note(quote: str) -> bool:
    """Whether the quote is only a citation or amendment note."""
    return _NOTE.fullmatch(quote) is not None and _CITATION.search(quote) is not None


def is_lead_in(quote: str) -> bool:
    """Whether the quote ends as the lead-in of a list of requirements (not of conditions)."""
    stripped = quote.rstrip()
    return stripped.endswith(_LEAD_IN_MARKS) and CONDITION_LEAD.search(stripped) is None


def set_aside(rows: list[dict]) -> list[dict]:
    """The candidate rows, each with `is_requirement` false where it is no requirement on its own:
    a citation note, a lead-in, or the span that other rows of its document carry as their
    lead-in (a lead-in the paragraph's end closed, without a mark)."""
    carried = {
        (row["doc_id"], row["lead_in_start"], row["lead_in_end"])
        for row in rows
        if row["lead_in_start"] is not None
    }
    for row in rows:
        if (
            (row["doc_id"], row["char_start"], row["char_end"]) in carried
            or is_lead_in(row["exact_quote"])
            or is_citation_note(row["exact_quote"])
        ):
            row["is_requirement"] = False
    return rows
