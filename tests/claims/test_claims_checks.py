"""groundwork/claims/verdict.py's list of checks (CHECKS), which the ablation and reports read:
every check is the module's own function under its name (so turning it off by that name turns
it off), its reasons are the ones the verdict gives, and a check turned off finds nothing."""

from __future__ import annotations

from unittest import mock

import groundwork.claims.verdict as verdict
from groundwork.claims.verdict import CHECKS, CONTRADICTED, SUPPORTED, checked_claim
from tests.support.texts import LOG

MAY_AS_MUST = LOG.replace("the covered entity may maintain", "the covered entity must maintain")


def test_each_check_is_the_verdicts_function_of_its_name():
    assert len({c.name for c in CHECKS}) == len(CHECKS)
    for check in CHECKS:
        assert getattr(verdict, check.finds.__name__) is check.finds, check.name


def test_a_conflict_is_given_with_its_checks_reason():
    check = next(c for c in CHECKS if c.name == "modality conflicts")
    found = checked_claim(MAY_AS_MUST, LOG)
    assert found.verdict == check.verdict == CONTRADICTED
    assert found.reason == check.reasons[0].format(found.issues[0])


def test_a_check_turned_off_by_its_name_finds_nothing():
    check = next(c for c in CHECKS if c.name == "modality conflicts")
    with mock.patch.object(verdict, check.finds.__name__, lambda *args, **kwargs: check.nothing):
        assert checked_claim(MAY_AS_MUST, LOG).verdict == SUPPORTED
