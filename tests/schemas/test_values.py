"""Allowed values come from the pandera contracts."""

from __future__ import annotations

import pytest

from schemas.answers import Answers
from schemas.statements import Statements
from schemas.values import allowed_values


def test_allowed_values_are_the_contracts():
    assert allowed_values(Answers, "result") == ("ANSWERED", "NO_AUTHORITATIVE_EVIDENCE")
    assert allowed_values(Statements, "verdict")[0] == "SUPPORTED"
    with pytest.raises(KeyError):
        allowed_values(Answers, "question")
