"""The claim verdict is its list of checks (groundwork/claims/verdict.py, CHECKS): the first check
that finds something in the case decides, the checks after it that give the same verdict for the
same reason add their issues, and nothing outside the list decides. Taking a check out of the
list (as benchmarks/ablation.py does) is then the verdict without it."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest

import groundwork.claims.verdict as verdict
from groundwork.claims.verdict import (
    CHECKS,
    CONTRADICTED,
    FULL,
    LIGHT,
    SUPPORTED,
    UNSUPPORTED,
    Case,
    Found,
    checked_claim,
)

WORDINGS = Path(__file__).resolve().parents[2] / "data/labels/wordings.jsonl"
# A shorter period and "may" for "must": two conflicts, the number's first in the list.
TWO_CONFLICTS = (
    "The covered entity may keep the log for 3 years.",
    "The covered entity must keep the log for 6 years.",
)
# A frequency and a number the quote does not state: two inventions, each with its own reason.
TWO_INVENTIONS = (
    "The agency must review the log every year, within 30 days of the audit.",
    "The agency must review the log.",
)


def _without(name: str) -> tuple[verdict.Check, ...]:
    return tuple(c for c in CHECKS if c.name != name)


def _pairs() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in WORDINGS.read_text(encoding="utf-8").splitlines()]
    return [(r["claim"], r["quote"]) for r in rows if r["kind"] == "pair"]


@pytest.mark.parametrize("depth", [FULL, LIGHT])
def test_the_first_check_that_finds_something_gives_the_verdict_and_reason(depth):
    for claim, quote in [*_pairs(), TWO_CONFLICTS, TWO_INVENTIONS]:
        case = Case.read(claim, quote, depth)
        found = [(c, c.finds(case)) for c in CHECKS]
        first = next(((c, f) for c, f in found if f.issues), None)
        check = checked_claim(claim, quote, depth)
        if first is None:
            assert check.verdict == SUPPORTED and not check.issues, claim
            continue
        deciding, finding = first
        assert check.verdict == deciding.verdict, claim
        assert check.reason == deciding.reason.format(*(finding.words or finding.issues[:1]))
        assert set(finding.issues) <= set(check.issues), claim


def test_every_check_reads_the_case_and_returns_what_it_found():
    case = Case.read(*TWO_CONFLICTS)
    for check in CHECKS:
        assert isinstance(check.finds(case), Found), check.name


def test_conflicts_are_one_verdict_naming_each_the_first_in_the_reason():
    found = checked_claim(*TWO_CONFLICTS)
    assert found.verdict == CONTRADICTED
    assert found.issues == ("deadline differs: 3 years vs 6 years", "modality changed: may vs must")
    assert "deadline differs" in found.reason


def test_a_conflict_taken_out_of_the_list_leaves_the_next_to_decide():
    with mock.patch.object(verdict, "CHECKS", _without("number conflicts")):
        found = checked_claim(*TWO_CONFLICTS)
    assert found.verdict == CONTRADICTED
    assert found.issues == ("modality changed: may vs must",)
    assert "may vs must" in found.reason


def test_a_check_with_a_reason_of_its_own_is_not_joined_by_the_next():
    found = checked_claim(*TWO_INVENTIONS)
    assert (found.verdict, found.issues) == (UNSUPPORTED, ("frequency not in quote: every year",))
    with mock.patch.object(verdict, "CHECKS", _without("invented frequency")):
        found = checked_claim(*TWO_INVENTIONS)
    assert found.verdict == UNSUPPORTED
    assert found.issues == ("number not in quote: 30 days",)
