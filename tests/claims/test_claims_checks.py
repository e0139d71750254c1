"""groundwork/claims/verdict.py's list of checks (CHECKS), which the ablation and reports read:
every check has a name of its own, its reason is the one the verdict gives, and the verdict
without a check (the list without it) no longer finds what it finds."""

from __future__ import annotations

from unittest import mock

import groundwork.claims.verdict as verdict
from groundwork.claims.verdict import CHECKS, CONTRADICTED, SUPPORTED, checked_claim
from tests.support.texts import LOG

MAY_AS_MUST = LOG.replace("the covered entity may maintain", "the covered entity must maintain")


def test_each_check_has_a_name_of_its_own():
    assert len({c.name for c in CHECKS}) == len(CHECKS)


def test_a_conflict_is_given_with_its_checks_reason():
    check = next(c for c in CHECKS if c.name == "modality conflicts")
    found = checked_claim(MAY_AS_MUST, LOG)
    assert found.verdict == check.verdict == CONTRADICTED
    assert found.reason == check.reason.format(found.issues[0])


def test_a_check_turned_off_by_its_name_finds_nothing():
    check = next(c for c in CHECKS if c.name == "modality conflicts")
    with mock.patch.object(verdict, "CHECKS", tuple(c for c in CHECKS if c is not check)):
        assert checked_claim(MAY_AS_MUST, LOG).verdict == SUPPORTED
