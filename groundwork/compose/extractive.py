"""The extractive composer, the offline default: every statement quotes one verified requirement
verbatim (with its lead-in for a list item) and cites it, so a statement cannot carry a fact its
citation lacks. Statutes and regulations are shown apart from policies, each grouped by who
bears the requirement and by modality (groundwork/compose/groups.py) under a one-line overview;
an obligation and a prohibition or permission on the same action are shown both ways.
"""

from __future__ import annotations

from collections import Counter

from groundwork.compose.draft import (
    NO_EVIDENCE,
    Draft,
    answer_record,
    location,
    missing_evidence,
    quoted,
    verified_unique,
)
from groundwork.compose.groups import group_heading, grouped, overview
from groundwork.stages import COMPOSER
from groundwork.text.terms import surface_words, terms
from schemas.config import ClaimChecks

MAX_STATEMENTS = 8
SECTIONS = {
    "statutes": "Statutes and regulations",
    "policies": "Policies",
    "tensions": "Where the sources pull in different directions",
}


def _action_terms(row: dict) -> list[str]:
    """The first content terms after the trigger, in order: what the requirement does (its verb
    first, mostly). The words of who bears it and numbers (a section's, a date's) are not."""
    quote = row["exact_quote"]
    after = (
        quote[quote.find(row["trigger"]) + len(row["trigger"]) :]
        if row["trigger"] in quote
        else quote
    )
    bearer = set(terms(row.get("subject") or ""))
    return [t for t in terms(after) if t not in bearer and not t[0].isdigit()][:6]


def tensions(rows: list[dict]) -> list[tuple[dict, dict, list[str]]]:
    """Pairs of an obligation and a prohibition or permission that act on the same thing: they
    share two action terms, one of them the first of either ("shall disclose the records" and
    "may disclose the records"). Sharing only who they are about ("the covered entity") or
    what they mention ("ensure that subcontractors ..." and "may permit a subcontractor ...")
    is no tension."""
    found = []
    duties = [r for r in rows if r["modality"] == "obligation"]
    others = [r for r in rows if r["modality"] in ("prohibition", "permission")]
    for duty in duties:
        mine = _action_terms(duty)
        for other in others:
            theirs = _action_terms(other)
            shared = sorted(set(mine) & set(theirs))
            if len(shared) >= 2 and (mine[0] in shared or theirs[0] in shared):
                found.append((duty, other, shared))
    return found[:3]


def composed(
    question: dict, evidence: list[dict], rejected: Counter, settings: ClaimChecks
) -> tuple[dict, Draft]:
    """The answer row and its statements and citations for one question."""
    unique = verified_unique(evidence)
    draft = Draft(question["question_id"], settings, {r["requirement_id"]: r for r in unique})
    used, unused = unique[:MAX_STATEMENTS], unique[MAX_STATEMENTS:]
    statutes = [r for r in used if r["source_type"] != "policy"]
    policies = [r for r in used if r["source_type"] == "policy"]
    if not used:
        draft.line(f"{NO_EVIDENCE}: {missing_evidence(question, rejected)}")
    else:
        draft.line(overview(unique, used))
        for section, rows in (("statutes", statutes), ("policies", policies)):
            if rows:
                draft.line(f"\n{SECTIONS[section]}:")
            for who, modality, members in grouped(rows):
                draft.line(group_heading(who, modality, len(members)))
                for r in members:
                    body = f'{location(r)} ({r["modality"]}): "{quoted(r)}"'
                    draft.statement(section, body, [r], "quote")
        pairs = tensions(used)
        if pairs:
            draft.line(f"\n{SECTIONS['tensions']}:")
            for duty, other, shared in pairs:
                words = ", ".join(dict.fromkeys(surface_words(quoted(duty), shared)))
                body = (
                    f"{location(duty)} states an obligation and {location(other)} a "
                    f"{other['modality']} on the same action ({words})"
                )
                draft.statement("tensions", body, [duty, other], "tension")
        if unused:
            ids = ", ".join(r["requirement_id"] for r in unused)
            draft.line(f"\nAlso verified, not quoted above: {ids}.")
    return answer_record(question, draft, unique, rejected, COMPOSER), draft
