"""The statement verdict: quotes and tensions are supported by construction, claims by support."""

from __future__ import annotations

import pytest

from schemas.statements import statement_verdict


@pytest.mark.parametrize(
    ("form", "support", "verdict"),
    [
        ("quote", 1.0, "SUPPORTED"),
        ("tension", 1.0, "SUPPORTED"),
        ("claim", 0.9, "SUPPORTED"),
        ("claim", 0.89, "PARTIAL"),
        ("claim", 0.6, "PARTIAL"),
    ],
)
def test_statement_verdict(form: str, support: float, verdict: str):
    assert statement_verdict(form, support) == verdict
